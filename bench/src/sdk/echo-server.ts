import { spawn } from 'node:child_process';
import { once } from 'node:events';

// A fixed page, the size of a small real list answer, so every client reads the same bytes.
const SERVER = `
const http = require('node:http');
const body = JSON.stringify({
  data: Array.from({ length: 5 }, (_, i) => ({ id: 'o' + i, number: 'SO-' + i, status: 'confirme', total_cents: 1000 * i })),
  next_cursor: null,
});
http.createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body));
}).listen(0, '127.0.0.1', function () { console.log(this.address().port); });
`;

export interface EchoServer {
  baseUrl: string;
  stop(): Promise<void>;
}

/** A node:http server in its own process that answers every request with the same page. */
export async function startEchoServer(): Promise<EchoServer> {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  const port = Number(chunk.toString().trim());
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
