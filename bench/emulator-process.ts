// The itch.io emulator in a process of its own, so that its work is not counted in the token
// handler's figures. Started by bench/server.ts; answers on IPC.
//   → { type: 'tokens', count }   ← { type: 'tokens', tokens }   (fresh OAuth access tokens)
//   → { type: 'close' }
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator } from '../src/emulator/index.js';

const emulator = await startEmulator();
process.send!({ type: 'ready', url: emulator.url, apiUrl: emulator.apiUrl });

process.on('message', (message: { type: string; count?: number }) => {
  if (message.type === 'tokens') {
    const users = Object.values(C.users);
    const tokens = Array.from({ length: message.count ?? 0 }, (_, i) =>
      emulator.issueToken({ userId: users[i % users.length]!, clientId: C.clients.demo.clientId, scopes: 'profile:me' }),
    );
    process.send!({ type: 'tokens', tokens });
  } else if (message.type === 'close') {
    void emulator.close().then(() => process.exit(0));
  }
});
