import { readArgPath } from './arg-path.js';

/**
 * The text an approver reads. A tool's own template fills `{{tool}}` and `{{args.path}}`; otherwise the prefix,
 * the tool and its arguments, as LangChain's middleware writes it.
 */
export function describeCall(toolName: string, args: Record<string, unknown>, prefix: string, template?: string): string {
  if (template) {
    return template.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, key: string) => {
      if (key === 'tool') return toolName;
      const value = key === 'args' ? args : key.startsWith('args.') ? readArgPath(args, key.slice(5)) : undefined;
      return value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
    });
  }
  return `${prefix}\n\nTool: ${toolName}\nArgs: ${JSON.stringify(args, null, 2)}`;
}
