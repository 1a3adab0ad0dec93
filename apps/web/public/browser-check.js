// Runs before the app (ES5, no modules): a browser older than the oldest kernel supported (Chromium 86, ADR 0047)
// would render the pages broken, so it is told so in Chinese, with what to install. Loaded as a file, not inline,
// as the host's Content-Security-Policy allows scripts from 'self' only.
(function () {
  var ua = navigator.userAgent;
  var chrome = /Chrom(?:e|ium)\/(\d+)/.exec(ua);
  var modern =
    typeof String.prototype.replaceAll === 'function' &&
    typeof Promise !== 'undefined' &&
    typeof Promise.allSettled === 'function' &&
    'noModule' in document.createElement('script');
  if (modern && (!chrome || Number(chrome[1]) >= 86)) return;
  var show = function () {
    var box = document.createElement('div');
    box.setAttribute('role', 'alert');
    box.style.cssText =
      'max-width:560px;margin:80px auto;padding:24px;font:16px/1.8 sans-serif;color:#1f2937;border:1px solid #f59e0b;background:#fffbeb;border-radius:8px';
    box.innerHTML =
      '<h1 style="font-size:20px;margin:0 0 12px">您的浏览器版本过低，智能作业无法正常显示</h1>' +
      '<p style="margin:0 0 8px">请安装最新版 Chrome、Microsoft Edge 或 360 安全浏览器后再打开本页。</p>' +
      '<p style="margin:0">使用 360、QQ 或搜狗浏览器时，请点击地址栏右侧的图标切换到“极速模式”，并升级到最新版本。</p>';
    document.body.insertBefore(box, document.body.firstChild);
  };
  if (document.body) show();
  else document.addEventListener('DOMContentLoaded', show);
})();
