#!/usr/bin/env node
// `dbform --version` alone is answered before commander and the command modules load: it is what
// scripts run first, and SPEC section 8 gives it 150 ms, of which Node's own start takes about 60.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { VERSION } = await import('../dist/cli/version.js');
  process.stdout.write(`${VERSION}\n`);
} else {
  await import('../dist/cli/main.js');
}
