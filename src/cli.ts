#!/usr/bin/env node
// `npx itch-oauth-widget <command>`: the package's command line. One command so far.
import { main as emulator } from './emulator/cli.js';

const [command, ...rest] = process.argv.slice(2);
if (command === 'emulator') {
  await emulator(rest);
} else {
  console.error('usage: itch-oauth-widget emulator [--port N] [--host H] [--data FILE]');
  process.exit(command === undefined || command === '--help' ? 0 : 2);
}
