// `itch-oauth-widget emulator`, run through the package's command line (src/cli.ts, the `bin`),
// stops on SIGINT and SIGTERM even with a browser's keep-alive connection open, and frees its
// port: the same port can be bound again at once. Run by `npx`, it is npm's child, and npm exits
// on SIGTERM without passing it on: the emulator then stops by itself.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { createServer } from 'node:net';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Binds `port` on 127.0.0.1 and lets it go: rejects with EADDRINUSE while someone holds it. */
async function bindAgain(port: number): Promise<void> {
  const server = createServer();
  server.listen(port, '127.0.0.1');
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error as Error))]);
  await new Promise((resolve) => server.close(resolve));
}

/** Whether a process runs (an exited orphan that no init reaped yet is a zombie: not running). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('itch-oauth-widget emulator, through the command line', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    test(`${signal} stops it, with a keep-alive connection open, and its port is free afterwards`, async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'emulator', '--port', '0'], { cwd: ROOT, stdio: 'pipe' });
      const exited = once(child, 'exit');
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      try {
        const deadline = Date.now() + 20_000;
        while (!stdout.includes('Press Ctrl+C to stop.') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        const url = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(stdout);
        assert.ok(url, stdout);
        const port = Number(url[2]);
        await assert.rejects(bindAgain(port), /EADDRINUSE/, 'the emulator holds its port while it runs');

        // A browser keeps its connection open after a page: the emulator must not wait for it.
        const agent = new Agent({ keepAlive: true });
        await new Promise<void>((resolve, reject) =>
          get(`${url[1]}/user/oauth`, { agent }, (response) => response.resume().on('end', resolve)).on('error', reject),
        );

        const signalledAt = Date.now();
        child.kill(signal);
        const [code] = await exited;
        assert.equal(code, 0, `exit code after ${signal}`);
        assert.ok(Date.now() - signalledAt < 5000, `stopped in ${Date.now() - signalledAt} ms`);
        await bindAgain(port);
        agent.destroy();
      } finally {
        child.kill('SIGKILL');
      }
    });
  }

  test('stops and frees its port when the process that started it ends (npx exiting on SIGTERM)', async () => {
    // A parent like `npm exec`: it starts the CLI and dies without passing any signal on.
    const parentScript = `const { spawn } = require('node:child_process');
const child = spawn(process.execPath, ['--import', 'tsx', ${JSON.stringify(CLI)}, 'emulator', '--port', '0'], { stdio: 'inherit' });
console.log('child ' + child.pid);
setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['-e', parentScript], { cwd: ROOT, stdio: 'pipe' });
    let stdout = '';
    parent.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    let childPid: number | undefined;
    try {
      const deadline = Date.now() + 20_000;
      while (!stdout.includes('Press Ctrl+C to stop.') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      childPid = Number(/child (\d+)/.exec(stdout)?.[1]);
      const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout)?.[1]);
      assert.ok(port > 0 && childPid > 0, stdout);
      parent.kill('SIGKILL');
      const freeBy = Date.now() + 5000;
      for (;;) {
        try {
          await bindAgain(port);
          break;
        } catch (error) {
          if (Date.now() > freeBy) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.ok(!running(childPid), 'the orphaned emulator has exited');
    } finally {
      parent.kill('SIGKILL');
      try {
        if (childPid) process.kill(childPid, 'SIGKILL');
      } catch {
        // (Gone already.)
      }
    }
  });
});
