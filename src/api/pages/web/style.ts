/**
 * The web app's stylesheet, one file served from the hashed asset path. Colours keep WCAG AA
 * contrast on their backgrounds; the layout narrows to one column on a phone-width screen.
 */
export const APP_STYLE = `*{box-sizing:border-box}
body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2328;background:#fff}
a{color:#0757b3}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:2px solid #0757b3;outline-offset:2px}
header.app{background:#24292f;color:#fff;padding:8px 16px;display:flex;gap:14px;align-items:center;flex-wrap:wrap}
header.app a{color:#fff;text-decoration:none}header.app .brand{font-weight:700}
header.app form.search{flex:1;min-width:200px;display:flex}
header.app input[type=search]{flex:1;padding:6px 10px;border-radius:6px;border:1px solid #57606a;background:#fff;color:#1f2328;font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}
header.app form.sign-out,header.app form[action='/sign-out']{display:inline}
header.app button{background:none;border:0;color:#fff;font:inherit;cursor:pointer;padding:0}
header.app a:focus-visible,header.app button:focus-visible,header.app input:focus-visible{outline-color:#fff}
main.app{padding:16px;max-width:1280px;margin:0 auto}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.muted{color:#59636e}.error{background:#ffebe9;border:1px solid #cf222e66;padding:8px 12px;border-radius:6px}
code,pre,.code{font:12.5px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{margin:0;overflow-x:auto}
table{border-collapse:collapse}
ul.examples{padding-left:18px}ul.examples li{margin:6px 0}
.not-found ul.next{padding-left:18px}.not-found ul.next li{margin:6px 0}
@media (max-width:640px){header.app{padding:8px}main.app{padding:10px}}`;
