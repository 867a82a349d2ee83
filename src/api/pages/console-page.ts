/**
 * The debug console page (`/debug/console`): GraphiQL over `/.api/graphql`. The caller's access
 * token is typed into the page once, kept in the tab's sessionStorage, and sent as
 * `Authorization: token …` with every request, introspection included.
 */

export const CONSOLE_PATH = '/debug/console';
export const CONSOLE_ASSETS_PATH = '/debug/console/assets/';

export function consolePage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Quarry API console</title>
<link rel="stylesheet" href="${CONSOLE_ASSETS_PATH}graphiql.css">
<style>
  html, body { height: 100%; margin: 0; font-family: system-ui, sans-serif; }
  body { display: flex; flex-direction: column; }
  #bar { display: flex; gap: 8px; align-items: center; padding: 6px 10px; border-bottom: 1px solid #ddd; }
  #bar input { flex: 1; font-family: monospace; }
  #console { flex: 1; min-height: 0; }
</style>
</head>
<body>
<div id="bar">
  <label for="token">Access token</label>
  <input id="token" type="password" autocomplete="off" placeholder="sgp_… (sent as Authorization: token …)">
  <button id="save" type="button">Use token</button>
</div>
<div id="console"></div>
<script src="${CONSOLE_ASSETS_PATH}react.js"></script>
<script src="${CONSOLE_ASSETS_PATH}react-dom.js"></script>
<script src="${CONSOLE_ASSETS_PATH}graphiql.js"></script>
<script>
  const KEY = 'quarry.accessToken';
  const input = document.getElementById('token');
  input.value = sessionStorage.getItem(KEY) || '';
  async function fetcher(params) {
    const token = sessionStorage.getItem(KEY);
    const response = await fetch('/.api/graphql', {
      method: 'POST',
      headers: Object.assign({ 'Content-Type': 'application/json' }, token ? { Authorization: 'token ' + token } : {}),
      body: JSON.stringify(params),
    });
    const text = await response.text();
    try { return JSON.parse(text); } catch { return { errors: [{ message: response.status + ' ' + text }] }; }
  }
  const root = ReactDOM.createRoot(document.getElementById('console'));
  function render() {
    root.render(React.createElement(GraphiQL, { fetcher, key: sessionStorage.getItem(KEY) || 'anonymous', defaultEditorToolsVisibility: true }));
  }
  document.getElementById('save').addEventListener('click', () => {
    sessionStorage.setItem(KEY, input.value.trim());
    render();
  });
  render();
</script>
</body>
</html>
`;
}
