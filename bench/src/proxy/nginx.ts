import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findFreePort } from '@erp/db/embedded';
import { type ServerProcess, startCommandProcess } from '../lib/server-process';

export const NGINX = process.env.BENCH_NGINX ?? '/usr/sbin/nginx';

/** Whether nginx can be run; when not, the run says how to install it and skips its column. */
export function nginxAvailable(): boolean {
  try {
    accessSync(NGINX, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The reference proxy: nginx in the foreground (`daemon off`, so it is our child and stops
 * with us), one worker, `location /api/v1/public/` → the portal through an upstream of
 * keep-alive connections. Everything it writes (pid, error log, temp dirs) is in a temporary
 * directory removed on stop; no access log.
 */
export async function startNginx(portalUrl: string, readyPath: string): Promise<ServerProcess> {
  const dir = await mkdtemp(path.join(tmpdir(), 'erp-bench-nginx-'));
  try {
    const port = await findFreePort();
    const upstream = new URL(portalUrl).host;
    await writeFile(path.join(dir, 'nginx.conf'), nginxConfig(dir, port, upstream));
    const server = await startCommandProcess(NGINX, {
      name: 'nginx',
      cwd: dir,
      args: ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'],
      env: {},
      port,
      readyPath,
    });
    return {
      ...server,
      stop: () => server.stop().finally(() => rm(dir, { recursive: true, force: true })),
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

function nginxConfig(dir: string, port: number, upstream: string): string {
  const p = (name: string) => path.join(dir, name);
  return `worker_processes 1;
pid ${p('nginx.pid')};
error_log ${p('error.log')} warn;
events {
  worker_connections 1024;
}
http {
  access_log off;
  client_body_temp_path ${p('client_body')};
  proxy_temp_path ${p('proxy')};
  fastcgi_temp_path ${p('fastcgi')};
  uwsgi_temp_path ${p('uwsgi')};
  scgi_temp_path ${p('scgi')};
  upstream portal {
    server ${upstream};
    keepalive 32;
    # Below the portal's 5 s (Node's default), as landing's pool: nginx closes an idle
    # connection before the portal does. No limit of requests per connection either way,
    # as Node servers have none (nginx's default of 1000 closes autocannon's connections).
    keepalive_timeout 4s;
    keepalive_requests 1000000;
  }
  server {
    listen 127.0.0.1:${port};
    keepalive_requests 1000000;
    location /api/v1/public/ {
      proxy_pass http://portal;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
    }
  }
}
`;
}
