/**
 * The search page's part of the stylesheet (served in app.css after style.ts's): the highlighted
 * query box, results, filter sidebar and notices. Colours keep WCAG AA contrast on their backgrounds.
 */
export const SEARCH_STYLE = `
.query-box{position:relative;flex:1;display:flex;background:#fff;border-radius:6px}
.query-box .query-overlay,header.app .query-box input.query-input{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;padding:6px 10px;border:1px solid transparent;letter-spacing:normal}
.query-box .query-overlay{position:absolute;inset:0;white-space:pre;overflow:hidden;color:#1f2328;pointer-events:none}
header.app .query-box input.query-input{position:relative;background:transparent;color:transparent;caret-color:#1f2328;border-color:#57606a;min-width:0}
header.app .query-box input.query-input::placeholder{color:#59636e}
.q-filter-key{color:#0550ae}.q-negation{color:#cf222e;font-weight:700}.q-operator{color:#8250df;font-weight:700}
.q-paren{color:#953800;font-weight:700}.q-regexp{color:#116329}.q-quoted{color:#0a3069}
.q-error{text-decoration:underline wavy #cf222e;text-decoration-skip-ink:none}
.search-status{margin:0 0 10px;color:#59636e}
/* A block of its own, so Element Timing reports the final status when it is painted (inline text counts as its block's, painted earlier). */
.search-status [elementtiming]{display:inline-block}
.search-columns{display:grid;grid-template-columns:220px minmax(0,1fr);gap:20px;align-items:start}
.search-columns>.search-filters[hidden]+.search-main{grid-column:1/-1}
.search-filters h2{font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:#59636e;margin:12px 0 4px}
.search-filters ul{list-style:none;margin:0;padding:0}
.search-filters a{display:flex;justify-content:space-between;gap:8px;padding:3px 6px;border-radius:4px;text-decoration:none;color:#1f2328;font-size:13px}
.search-filters a:hover{background:#f6f8fa}.search-filters .label{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.search-filters .count{color:#59636e}
ol.results{list-style:none;margin:0;padding:0}
/* Results off screen are neither laid out nor painted until scrolled near (500 results stay cheap); the size they keep meanwhile is a typical result's. */
li.result{border:1px solid #d0d7de;border-radius:6px;margin:0 0 12px;overflow:hidden;content-visibility:auto;contain-intrinsic-size:auto 160px}
.result-header{display:flex;flex-wrap:wrap;gap:4px 8px;align-items:baseline;padding:6px 10px;background:#f6f8fa;border-bottom:1px solid #d0d7de}
.result-header a.repo{color:#1f2328;text-decoration:none}.result-header a.path{font-weight:600;word-break:break-all}
.result-header .kind,.result-header .count{font-size:12px}.result-header .count{margin-left:auto}
li.result:focus-within{box-shadow:0 0 0 2px #0757b3}
/* One scroller per result, not per line: every scroller is a layer of its own to lay out and paint. */
.lines{overflow-x:auto}
.lines a.line{display:flex;gap:12px;padding:0 10px;color:#1f2328;text-decoration:none;white-space:pre;min-width:max-content}
.lines a.line:hover{background:#f6f8fa}.lines a.line.context code{color:#59636e}.lines a.line.gap{border-top:1px dashed #d0d7de}.lines .ln{color:#59636e;min-width:3em;text-align:right;user-select:none;font:12.5px/1.5 ui-monospace,SFMono-Regular,Menlo,monospace}
mark{background:#fff1a8;color:inherit;border-radius:2px}
.commit-lines .diff-line{padding:0 10px;white-space:pre;min-width:max-content}.diff-line.added{background:#e6ffec}.diff-line.removed{background:#ffebe9}.diff-line.hunk{color:#59636e}
button.more{margin:4px 10px 8px;background:none;border:0;color:#0757b3;cursor:pointer;font:inherit;padding:0}
ul.symbols{list-style:none;margin:0;padding:4px 10px}ul.symbols li{margin:2px 0}.symbol-kind{font-size:12px;color:#59636e}
ul.notices{list-style:none;margin:0 0 10px;padding:0}ul.notices:empty{display:none}
.notice{padding:6px 10px;border-radius:6px;margin-bottom:6px;background:#ddf4ff;border:1px solid #54aeff66}.notice.warn{background:#fff8c5;border-color:#d4a72c66}
.error-position{margin-top:6px}.error-position mark{background:#ffc1bc}
.more-note{margin:4px 10px 8px}
@media (max-width:640px){.search-columns{grid-template-columns:minmax(0,1fr)}.search-filters{order:2}}`;
