/**
 * The repository pages' part of the stylesheet: header and tabs, revision picker, tree, code with
 * line numbers and highlight classes (GitHub's light palette, AA contrast on white and on the
 * selected-line yellow), diffs, and the references panel. Served inside app.css.
 */
export const REPO_STYLE = `
.repo-head{display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px;border-bottom:1px solid #d0d7de;margin-bottom:12px;padding-bottom:8px}
.repo-name{font-size:18px;margin:0;word-break:break-all}.repo-name .rev{font-weight:400;color:#59636e;font-size:15px}
.repo-tabs ul{display:flex;flex-wrap:wrap;gap:4px 14px;list-style:none;margin:0;padding:0}.repo-tabs a[aria-current]{font-weight:700;color:#1f2328}
details.revpick{position:relative}details.revpick summary{cursor:pointer;border:1px solid #d0d7de;border-radius:6px;padding:3px 10px;background:#f6f8fa}
.revpick-menu{position:absolute;z-index:5;background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:6px 12px;max-height:360px;overflow:auto;min-width:220px;box-shadow:0 8px 24px #8c959f33}
.revpick-menu h2{font-size:12px;margin:6px 0 2px;color:#59636e}.revpick-menu ul{list-style:none;margin:0;padding:0}.revpick-menu a[aria-current]{font-weight:700}
.crumbs{font-weight:600;word-break:break-all}ul.tree{list-style:none;padding:0;border:1px solid #d0d7de;border-radius:6px;margin:8px 0}
ul.tree li{padding:4px 12px;border-top:1px solid #eaeef2}ul.tree li:first-child{border-top:0}ul.tree li.dir a{font-weight:600}
.readme{border:1px solid #d0d7de;border-radius:6px;margin-top:16px}.readme h2{font-size:14px;margin:0;padding:8px 12px;border-bottom:1px solid #d0d7de;background:#f6f8fa}.readme pre{padding:12px;white-space:pre-wrap}
.note{background:#fff8c5;border:1px solid #d4a72c66;padding:6px 12px;border-radius:6px}
.blob{border:1px solid #d0d7de;border-radius:6px;overflow-x:auto}
table.code{border-collapse:collapse;width:100%;font:12.5px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
table.code td{padding:0 10px;vertical-align:top}table.code td.lc{white-space:pre;width:100%}
td.ln{text-align:right;user-select:none;width:1%;white-space:nowrap}td.ln a{color:#59636e;text-decoration:none}
table.code tr.sel,table.code tr:target{background:#fff8c5}
a.id{color:inherit;text-decoration:underline dotted #8c959f}a.id:hover,a.id:focus{background:#ddf4ff}
.hl-keyword{color:#cf222e}.hl-string{color:#0a3069}.hl-comment{color:#59636e}.hl-number,.hl-constant,.hl-property{color:#0550ae}
.hl-function{color:#6639ba}.hl-type,.hl-module{color:#953800}.hl-attribute,.hl-tag{color:#116329}.hl-escape,.hl-label{color:#0a3069}
.hover-card{position:absolute;z-index:10;max-width:min(640px,90vw);background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:8px 10px;box-shadow:0 8px 24px #8c959f44}
.hover-card pre{white-space:pre-wrap;margin:0 0 6px}.hover-card button{font:inherit;color:#0757b3;background:none;border:0;padding:0;cursor:pointer;text-decoration:underline}
.refs-panel{border:1px solid #d0d7de;border-radius:6px;margin-top:12px;padding:8px 12px}.refs-panel h2{font-size:15px;margin:4px 0}
ol.refs,ul.defs{padding-left:22px}ol.refs li,ul.defs li{margin:6px 0}ol.refs pre,ul.defs pre{background:#f6f8fa;padding:2px 6px;border-radius:4px}li.name-match{opacity:.9}
table.list{border-collapse:collapse;width:100%}table.list th,table.list td{text-align:left;padding:5px 8px;border-bottom:1px solid #eaeef2}td.num{text-align:right}
ol.commits{list-style:none;padding:0}ol.commits li{padding:6px 0;border-bottom:1px solid #eaeef2}ol.commits .muted{display:block;font-size:12.5px}
.pager{display:flex;gap:16px;margin:12px 0}.commit-meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px}.commit-meta dt{font-weight:600}.commit-meta dd{margin:0;word-break:break-all}
pre.message{white-space:pre-wrap}.file-diff{border:1px solid #d0d7de;border-radius:6px;margin:12px 0;overflow-x:auto}
.file-diff h3{font-size:13px;margin:0;padding:6px 10px;background:#f6f8fa;border-bottom:1px solid #d0d7de;word-break:break-all}.file-diff>p{padding:0 10px}
.status{font-weight:400;color:#59636e}.add{color:#116329}.del{color:#a40e26}
table.diff{border-collapse:collapse;width:100%;font:12.5px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}table.diff td{padding:0 8px}
table.diff td.lc{white-space:pre;width:100%}table.diff tr.add{background:#dafbe1;color:#1f2328}table.diff tr.del{background:#ffebe9;color:#1f2328}
table.diff tr.hunk td{background:#ddf4ff;color:#1f2328;padding:2px 8px}table.diff td.ln{color:#59636e}.mark{display:inline-block;width:1.2em}
form.compare{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:8px 0}form.compare input{padding:4px 8px;border:1px solid #8c959f;border-radius:6px;font:inherit}
form.ref-filter{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:8px 0}form.ref-filter input{padding:4px 8px;border:1px solid #8c959f;border-radius:6px;font:inherit;min-width:0;flex:0 1 260px}
form.ref-filter button,form.compare button{padding:4px 12px;border:1px solid #8c959f;border-radius:6px;background:#f6f8fa;color:#1f2328;font:inherit;cursor:pointer}
table.refs th[scope=row]{font-weight:600;word-break:break-all}table.refs td.subject{overflow-wrap:anywhere}table.refs time{white-space:nowrap}
.badge{display:inline-block;font-size:12px;font-weight:400;padding:0 7px;border:1px solid #8c959f;border-radius:10px;color:#1f2328}
@media (max-width:640px){.repo-head{display:block}.repo-tabs{margin-top:6px}table.code td{padding:0 6px}table.refs .oid{display:none}table.refs th,table.refs td{padding:5px 4px}}`;
