import { useCallback } from 'react';
import { RouterProvider } from 'react-router-dom';
import { AppProvider } from './provider';
import { router } from './router';

export function App() {
  const toHome = useCallback(() => void router.navigate('/', { replace: true }), []);
  return (
    <AppProvider onSignedOut={toHome}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
