// Script payloads for names and rich text (issue #12): the host test stores them, the browser test shows them.

/** For rich-text fields: each would run script if it reached the page as HTML. */
export const RICH_PAYLOADS = [
  '<script>alert("xss-script")</script>',
  '<img src=x onerror="alert(\'xss-img\')">',
  '<a href="javascript:alert(\'xss-link\')">点我</a>',
  '<svg onload="alert(\'xss-svg\')"><circle r="5"></circle></svg>',
  '"><img src=x onerror=alert(1)>',
  '<iframe src="javascript:alert(\'xss-frame\')"></iframe>',
  '<p onmouseover="alert(1)" style="background:url(javascript:alert(1))">悬停</p>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
] as const;

/** For names of up to 30 characters (school years, classes, groups, paper titles). */
export const NAME_PAYLOADS = [
  '<script>alert("xss")</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  "javascript:alert('x')",
  "'><b onclick=alert(1)>班",
] as const;

/** For names of up to 20 characters (students, nicknames). */
export const SHORT_NAME_PAYLOADS = [
  '<script>alert(1)//',
  '<img src onerror=1>',
  '<svg onload=alert()>',
  '"><b onclick=x()>',
  'javascript:alert(1)',
] as const;
