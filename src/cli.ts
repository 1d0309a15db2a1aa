#!/usr/bin/env node
// `npx itch-oauth-widget <command>`: the package's command line.
import { main as assets } from './assets/cli.js';
import { main as login } from './desktop/cli.js';
import { main as emulator } from './emulator/cli.js';

const [command, ...rest] = process.argv.slice(2);
if (command === 'emulator') {
  await emulator(rest);
} else if (command === 'assets') {
  await assets(rest);
} else if (command === 'login') {
  await login(rest);
} else {
  console.error(
    'usage: itch-oauth-widget assets <dir>\n' +
      '       itch-oauth-widget emulator [--port N] [--host H] [--data FILE]\n' +
      '       itch-oauth-widget login --client-id ID (--redirect-uri URI | --oob) [--scope S] [--base-url U]\n' +
      '       itch-oauth-widget login --from-itch-app [--client-id ID --redirect-uri URI]\n' +
      'Run a command with --help for its options.',
  );
  process.exit(command === undefined || command === '--help' ? 0 : 2);
}
