#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so `hitl` works from a checkout without a build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/client/cli/main.ts');
await main();
