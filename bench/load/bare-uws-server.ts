/**
 * The bare baseline: a uWebSockets.js server (loaded through src/http/uws.ts, the package's one
 * home) answering every request with a constant reply. Run as its own process; prints its URL.
 */
import { binding, uws } from '../../src/http/uws.js';

if (binding !== 'native') {
  console.error('uWebSockets.js fell back to its pure-JS server: the baseline would not be uWS');
  process.exit(1);
}

const app = uws.App().any('/*', (res) => {
  res.end('ok');
});
app.listen('127.0.0.1', 0, (socket) => {
  if (!socket) {
    console.error('the bare uWebSockets.js server could not listen on 127.0.0.1');
    process.exit(1);
  }
  console.log(`listening on http://127.0.0.1:${uws.us_socket_local_port(socket as never)}`);
});
