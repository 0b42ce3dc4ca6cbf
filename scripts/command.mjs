// `npm run backup|restore|admin -- …`: the owner's command built with the server (scripts/build-server.mjs,
// decision 460), rebuilt first when a source is newer, then run in this process with the arguments after
// its name, as `node dist/server/<command>.mjs …` would run it (stack traces mapped to the sources).
import { pathToFileURL } from 'node:url';
import { buildServer, builtFile, COMMANDS } from './build-server.mjs';

const [name, ...args] = process.argv.slice(2);
if (!COMMANDS.includes(name)) {
  console.error(`usage: node scripts/command.mjs ${COMMANDS.join('|')} [arguments]`);
  process.exit(2);
}
await buildServer();
process.setSourceMapsEnabled(true);
process.argv = [process.argv[0], builtFile(name), ...args];
await import(pathToFileURL(builtFile(name)).href);
