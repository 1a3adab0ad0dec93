import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './index.css';

function App() {
  return (
    <main className="mx-auto flex min-h-screen max-w-3xl flex-col justify-center gap-4 px-6 font-sans text-slate-800">
      <h1 className="text-3xl font-semibold">智能作业</h1>
      <p className="text-slate-600">组卷、答题卡、扫描识别、网上阅卷与学情分析，一站完成。</p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
