/** The local page (http://127.0.0.1:17310/pair) that shows the pairing code in large digits; refreshes itself. */
export function pairingPage(code: { code: string; expiresAt: number } | null, version: string): string {
  const body = code
    ? `<p class="lead">请在网页「连接扫描助手」对话框中输入下面的配对码：</p>
<p class="code" aria-label="配对码 ${code.code.split('').join(' ')}">${code.code.slice(0, 3)}&nbsp;${code.code.slice(3)}</p>
<p>配对码 5 分钟内有效，只能使用一次。</p>`
    : `<p class="lead">还没有配对码。</p>
<ol><li>在浏览器中打开智能作业的「扫描答题卡」页面；</li><li>点击「连接扫描助手」；</li><li>这里会立即显示 6 位配对码。</li></ol>`;
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta http-equiv="refresh" content="2">
<title>扫描助手 · 配对码</title>
<style>
body{font-family:"Microsoft YaHei","PingFang SC","Noto Sans CJK SC",sans-serif;margin:0;background:#f5f7fa;color:#1f2937}
main{max-width:40rem;margin:4rem auto;background:#fff;border-radius:12px;padding:2.5rem;box-shadow:0 2px 12px rgba(0,0,0,.08)}
h1{font-size:1.5rem;margin:0 0 1.5rem}.lead{font-size:1.125rem}
.code{font-size:5rem;font-weight:700;letter-spacing:.5rem;text-align:center;color:#1d4ed8;margin:2rem 0;font-variant-numeric:tabular-nums}
ol{line-height:2}footer{color:#6b7280;font-size:.875rem;margin-top:2rem}
</style></head>
<body><main><h1>智能作业 扫描助手</h1>
${body}
<footer>扫描助手正在运行（版本 ${version}），只在本机 127.0.0.1 上提供服务。本页每 2 秒自动刷新。</footer>
</main></body></html>`;
}
