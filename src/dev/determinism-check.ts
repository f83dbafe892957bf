/**
 * Fails the build when code that runs inside the workflow sandbox reaches for something non-deterministic: the
 * clock, randomness, the environment, timers or I/O outside the SDK. It follows every module the workflow entry
 * points import (type-only imports excluded, as they never reach the bundle), so a helper three imports away is
 * checked as strictly as the loop itself. `npm test` runs it first.
 */
import { readFileSync, existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { parse } from '@babel/parser';
import traverseModule, { type NodePath } from '@babel/traverse';
import {
  importsOnlyZ,
  isPrototypeGetter,
  memberName,
  prototypeUse,
  sharedStateChange,
  zodMisuses,
  ZOD_IMPORT,
  ZOD_USE,
} from './shared-state-rules.js';

// @babel/traverse is CommonJS: Node's ESM loader hands over module.exports (the function sits on .default),
// bundlers' interop the function itself.
type Traverse = typeof traverseModule.default;
const traverse: Traverse = typeof traverseModule === 'function' ? (traverseModule as unknown as Traverse) : traverseModule.default;
type Node = NodePath['node'];

/**
 * The workflows, the modules preloaded into the same sandbox (PRELOADED_MODULES in src/workflow-bundle.ts) and the
 * tracing interceptors bundled with them when tracing is on (TRACING_WORKFLOW_INTERCEPTOR_MODULES).
 */
export const WORKFLOW_ENTRIES = [
  'src/workflows/index.ts',
  'src/workflows/sandbox-globals.ts',
  'src/workflows/preloaded-crypto.ts',
  'src/schemas/built-once.ts',
  // What the bundle resolves `zod` to (src/workflow-bundle.ts).
  'src/schemas/zod-per-worker.ts',
  'src/workflows/tracing-interceptors.ts',
];
/** The one file allowed to read `Date`: the sandbox makes it the workflow task's time (see the file). */
export const CLOCK_FILE = 'src/workflows/workflow-clock.ts';

/** Packages whose code is deterministic and may be bundled into workflows. */
const ALLOWED_PACKAGES = [
  '@temporalio/workflow',
  '@temporalio/workflow-streams',
  // The SDK's tracing interceptors, written for the sandbox: OpenTelemetry's clock is the workflow's, its spans leave
  // through a sink the SDK skips during replay, and they add no commands.
  '@temporalio/interceptors-opentelemetry',
  '@temporalio/common',
  'zod',
  'ms',
  '@noble/hashes',
  '@noble/curves',
  '@scure/base',
  'micro-rsa-dsa-dh',
  'canonicalize',
  'fast-deep-equal',
  'base-64',
  // A JSON Schema interpreter (no code generation): MCP tools' arguments are checked against their schemas in workflows.
  '@cfworker/json-schema',
  // RE2 in JavaScript (no code generation, no clock, no randomness): `matches` conditions (src/policy/patterns.ts).
  're2js',
];
const FORBIDDEN_GLOBALS: Record<string, string> = {
  setTimeout: 'use sleep() or condition() from @temporalio/workflow',
  setInterval: 'use sleep() in a loop',
  setImmediate: 'use sleep()',
  clearTimeout: 'cancel a CancellationScope instead',
  clearInterval: 'cancel a CancellationScope instead',
  queueMicrotask: 'await a promise instead',
  fetch: 'do I/O in an activity',
  process: 'pass configuration in the workflow input (or read it in an activity)',
  performance: 'use workflowNow() from workflow-clock.ts',
  crypto: 'use uuid4() from @temporalio/workflow, or a pure hash library',
  require: 'use static imports',
};

export interface Finding {
  file: string;
  line: number;
  column: number;
  message: string;
}

export function checkWorkflowDeterminism(root: string, entries = WORKFLOW_ENTRIES): { files: string[]; findings: Finding[] } {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const queue = entries.map((entry) => path.resolve(root, entry)).filter((file) => existsSync(file));
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const relative = path.relative(root, file);
    const report = (node: { loc?: { start: { line: number; column: number } } | null }, message: string) =>
      findings.push({ file: relative, line: node.loc?.start.line ?? 0, column: (node.loc?.start.column ?? 0) + 1, message });

    const follow = (node: Parameters<typeof report>[0], source: string) => {
      if (source.startsWith('.')) {
        const target = path.resolve(path.dirname(file), source.replace(/\.js$/, '.ts'));
        if (existsSync(target)) queue.push(target);
        else report(node, `cannot resolve ${source}`);
      } else if (source.startsWith('node:') || builtinModules.includes(source)) {
        report(node, `imports the Node module "${source}": I/O belongs in activities`);
      } else if (!ALLOWED_PACKAGES.some((pkg) => source === pkg || source.startsWith(`${pkg}/`))) {
        report(node, `imports "${source}", which is not on the list of packages known to be deterministic (src/dev/determinism-check.ts)`);
      }
    };

    const ast = parse(readFileSync(file, 'utf8'), { sourceType: 'module', plugins: ['typescript'] });
    traverse(ast, {
      'ImportDeclaration|ExportNamedDeclaration|ExportAllDeclaration'(p: NodePath) {
        const node = p.node as { source?: { value: string } | null; importKind?: string; exportKind?: string };
        if (!node.source || node.importKind === 'type' || node.exportKind === 'type') return;
        const specifiers = (p.node as { specifiers?: { importKind?: string; exportKind?: string }[] }).specifiers ?? [];
        if (specifiers.length > 0 && specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type')) return;
        if (/^zod(\/|$)/.test(node.source.value) && !(node.source.value === 'zod' && importsOnlyZ(p))) report(p.node, ZOD_IMPORT);
        follow(p.node, node.source.value);
      },
      Program(p) {
        for (const ref of zodMisuses(p)) report(ref.node, ZOD_USE);
      },
      'MemberExpression|OptionalMemberExpression'(p: NodePath) {
        const node = p.node as Node & { object: Node; computed: boolean; property: Node };
        const name = memberName(node);
        if (name === undefined) return;
        const change = sharedStateChange(p, node.object, name);
        if (change) report(node, change);
        const { object } = node;
        if (object.type !== 'Identifier' || p.scope.hasBinding(object.name, true)) return;
        if (object.name === 'Math' && name === 'random')
          report(node, 'Math.random(): use uuid4() or a seeded choice from the workflow input');
        if (object.name === 'Date' && name === 'now' && relative !== CLOCK_FILE)
          report(node, 'Date.now(): use workflowNow() from workflow-clock.ts');
      },
      'NewExpression|CallExpression'(p: NodePath) {
        if (p.isCallExpression() && isPrototypeGetter(p.node.callee)) {
          const use = prototypeUse(p);
          if (use) report(p.node, use);
        }
        const node = p.node as { callee: { type: string; name?: string }; arguments: unknown[]; type: string };
        if (node.callee.type !== 'Identifier' || node.callee.name !== 'Date' || p.scope.hasBinding('Date', true) || relative === CLOCK_FILE)
          return;
        if (node.type === 'CallExpression' || node.arguments.length === 0)
          report(p.node, 'reads the clock through Date: use workflowNow() from workflow-clock.ts');
      },
      Identifier(p) {
        const advice = FORBIDDEN_GLOBALS[p.node.name];
        if (!advice || !p.isReferencedIdentifier() || p.scope.hasBinding(p.node.name, true)) return;
        // `require('literal')` is bundled like a static import (src/schemas/zod-per-worker.ts needs it to be lazy).
        const call = p.parent as { type: string; callee?: unknown; arguments?: { type: string; value?: unknown }[] };
        const [source, ...rest] = call.type === 'CallExpression' && call.callee === p.node ? call.arguments! : [];
        if (p.node.name === 'require' && source?.type === 'StringLiteral' && rest.length === 0)
          return follow(p.node, source.value as string);
        report(p.node, `uses the global "${p.node.name}": ${advice}`);
      },
    });
  }
  return { files: [...seen].map((f) => path.relative(root, f)), findings };
}

/** `npm run check:determinism` */
if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const { files, findings } = checkWorkflowDeterminism(process.cwd());
  for (const f of findings) console.error(`${f.file}:${f.line}:${f.column}  ${f.message}`);
  if (findings.length) {
    console.error(`\n${findings.length} non-deterministic use(s) in workflow code. Workflow code must replay identically: see README.`);
    process.exit(1);
  }
  console.log(`workflow code is deterministic (${files.length} files checked)`);
}
