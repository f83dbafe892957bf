/** `hitl model-server --script FILE --port N`: the scripted OpenAI-compatible server, standalone. */
import { readFileSync } from 'node:fs';
import { startModelServer } from '../../../model-server/server.js';
import { parseCount } from '../option-values.js';
import type { RegisterCommand } from './context.js';

export const registerModelServerCommand: RegisterCommand = (program) => {
  program
    .command('model-server')
    .description('serve a scripted OpenAI-compatible model for offline runs and tests')
    .requiredOption('--script <file>', 'JSON script')
    .option('--port <n>', 'port', parseCount, 8700)
    .option('--host <host>', 'interface to bind', '127.0.0.1')
    .action(async (opts) => {
      const server = await startModelServer({
        script: JSON.parse(readFileSync(opts.script, 'utf8')),
        port: opts.port,
        hostname: opts.host,
      });
      process.stdout.write(`scripted model server on ${server.baseURL} (set OPENAI_BASE_URL to it)\n`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await server.close();
    });
};
