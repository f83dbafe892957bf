/**
 * The determinism check's rules for state every run of a worker shares (src/dev/determinism-check.ts): zod's, since
 * one zod serves every run (src/schemas/zod-per-worker.ts), and the built-ins' prototypes. Each takes a node the
 * check's traversal is at, and says what is wrong with it, if anything.
 */
import type { NodePath } from '@babel/traverse';

type Node = NodePath['node'];

/**
 * One zod serves every run of a worker (src/schemas/zod-per-worker.ts), so what a run changes in it reaches every
 * later run, and a replay on another worker would not see it: `z.config()`, zod's global registry (`.meta()` with
 * metadata puts a schema in it, and a second run giving the same id would throw), and prototypes, zod's or any.
 */
export const ZOD_GLOBAL_STATE = {
  config: "z.config(): zod's config is shared by every run of the worker (src/schemas/zod-per-worker.ts)",
  globalRegistry: "zod's global registry is shared by every run of the worker: use a registry of the run's own (z.registry())",
  meta: ".meta(…) puts the schema in zod's global registry, shared by every run of the worker: use .describe()",
  prototype: 'changes a prototype, which every later run of the worker would see',
  prototypeValue:
    'takes a prototype as a value (stored, passed on, returned), where the check cannot see what changes it: read through it (X.prototype.name) or compare it',
} as const;

/**
 * In the bundle, 'zod' is the one zod of the worker (src/schemas/zod-per-worker.ts), which exports `z` and nothing
 * else: any other name imported from it would be undefined at run time (webpack only warns), and a subpath would
 * bring a second zod, instantiated by every run.
 */
export const ZOD_IMPORT = "workflow code imports only `{ z }` from 'zod' (src/schemas/zod-per-worker.ts); types may come from anywhere";
export const ZOD_USE =
  "uses `z` other than as `z.<name>` (an alias, a computed key, a value passed on), which the checks of zod's shared state could not follow";

/** Whether an import (of 'zod') takes only `z` from it, besides types; a re-export never does. */
export function importsOnlyZ(p: NodePath): boolean {
  if (!p.isImportDeclaration()) return false;
  return p.node.specifiers.every(
    (s) =>
      s.type === 'ImportSpecifier' &&
      (s.importKind === 'type' || (s.imported.type === 'Identifier' ? s.imported.name : s.imported.value) === 'z'),
  );
}

/** What the member expression `object.name` at `p` changes in zod's global state or a prototype, if anything. */
export function sharedStateChange(p: NodePath, object: Node, name: string): string | undefined {
  switch (name) {
    case 'prototype':
    case '__proto__':
      return prototypeUse(p);
    case 'meta':
      // Read with no arguments it only reads; taken as a value, it could be called with some anywhere.
      return p.parentPath?.isCallExpression({ callee: p.node }) && p.parentPath.node.arguments.length === 0
        ? undefined
        : ZOD_GLOBAL_STATE.meta;
    case 'config':
    case 'globalRegistry':
      return object.type === 'Identifier' && object.name === 'z' ? ZOD_GLOBAL_STATE[name] : undefined;
    default:
      return undefined;
  }
}

/**
 * What a prototype reached at `p` (`X.prototype`, `x.__proto__`, `Object.getPrototypeOf(x)`) is used for, if it is
 * anything but read through or compared: a write through it, or the prototype itself taken as a value, which an
 * alias could then change out of the check's sight (`const p = Array.prototype; p.last = …`).
 */
export function prototypeUse(p: NodePath): string | undefined {
  if (isAssignedThrough(p)) return ZOD_GLOBAL_STATE.prototype;
  let current: NodePath = p;
  while (current.parentPath && (current.parentPath.isTSAsExpression() || current.parentPath.isTSNonNullExpression()))
    current = current.parentPath;
  const parent = current.parentPath;
  const readThrough = parent?.isMemberExpression({ object: current.node }) || parent?.isOptionalMemberExpression({ object: current.node });
  const compared = parent?.isBinaryExpression() && ['===', '!==', '==', '!='].includes(parent.node.operator);
  return readThrough || compared ? undefined : ZOD_GLOBAL_STATE.prototypeValue;
}

/** `Object.getPrototypeOf(x)` or `Reflect.getPrototypeOf(x)`: a prototype, as `X.prototype` is. */
export function isPrototypeGetter(callee: Node): boolean {
  return (
    callee.type === 'MemberExpression' &&
    callee.object.type === 'Identifier' &&
    ['Object', 'Reflect'].includes(callee.object.name) &&
    memberName(callee) === 'getPrototypeOf'
  );
}

/** Whether the member expression is (part of) the target of an assignment, `x.prototype.y = …` or `x.prototype = …`. */
function isAssignedThrough(p: NodePath): boolean {
  let current: NodePath = p;
  const through = (parent: NodePath) =>
    parent.isMemberExpression({ object: current.node }) ||
    parent.isTSAsExpression() ||
    parent.isTSNonNullExpression() ||
    parent.isTSSatisfiesExpression();
  while (current.parentPath && through(current.parentPath)) current = current.parentPath;
  const parent = current.parentPath;
  return (
    !!parent &&
    (parent.isAssignmentExpression({ left: current.node }) ||
      parent.isUpdateExpression() ||
      parent.isUnaryExpression({ operator: 'delete' }) ||
      (parent.isCallExpression() && parent.node.arguments[0] === current.node && isMutator(parent.node.callee)))
  );
}

/** `Object.defineProperty(target, …)` and the other built-ins that change their first argument. */
const MUTATORS: Record<string, string[]> = {
  Object: ['assign', 'defineProperty', 'defineProperties', 'setPrototypeOf'],
  Reflect: ['set', 'defineProperty', 'deleteProperty', 'setPrototypeOf'],
};
function isMutator(callee: Node): boolean {
  if (callee.type !== 'MemberExpression' || callee.object.type !== 'Identifier') return false;
  const name = memberName(callee);
  return name !== undefined && (MUTATORS[callee.object.name]?.includes(name) ?? false);
}

/** The name a member expression reads, `x.name` or `x['name']`; undefined when it is computed at run time. */
export function memberName(node: { computed: boolean; property: Node }): string | undefined {
  const { computed, property } = node;
  if (!computed) return property.type === 'Identifier' ? property.name : undefined;
  if (property.type === 'StringLiteral') return property.value;
  if (property.type === 'TemplateLiteral' && property.expressions.length === 0) return property.quasis[0]!.value.cooked ?? undefined;
  return undefined;
}

/**
 * Where workflow code may use the `z` it imports from 'zod': as `z.<name>`, or in a type. Anything else (an alias,
 * `z[key]`, passing `z` on) would let the checks of zod's shared state above be walked around.
 */
export function zodMisuses(program: NodePath): NodePath[] {
  const misuses: NodePath[] = [];
  for (const binding of Object.values(program.scope.bindings)) {
    const declaration = binding.path.parentPath;
    const specifier = binding.path.node;
    // Any other name from 'zod' is refused at its import (ZOD_IMPORT).
    const isZ =
      specifier.type === 'ImportSpecifier' &&
      (specifier.imported.type === 'Identifier' ? specifier.imported.name : specifier.imported.value) === 'z';
    if (binding.kind !== 'module' || !declaration?.isImportDeclaration() || declaration.node.source.value !== 'zod' || !isZ) continue;
    for (const ref of binding.referencePaths) {
      const parent = ref.parentPath;
      const asObject =
        (parent?.isMemberExpression({ object: ref.node }) || parent?.isOptionalMemberExpression({ object: ref.node })) &&
        memberName(parent.node as { computed: boolean; property: Node }) !== undefined;
      if (!asObject && !ref.findParent((a) => a.isTSType() || a.isTSTypeAnnotation())) misuses.push(ref);
    }
  }
  return misuses;
}
