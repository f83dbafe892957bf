/**
 * An MCP tool result as the model reads it: text blocks as they are, structured content as JSON (unless a text
 * block already carries it, as the spec asks servers to do), and images, audio and resources as references (what
 * they are, how large, where), never their bytes. (Servers that keep the spec's advice send the structured
 * content's JSON as text too; others, like the filesystem server, send `{content: <the text>}`: neither is repeated.) Bounded like every tool result.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import equal from 'fast-deep-equal';
import { truncateBytes } from '../bounds/truncate.js';
import { LIMITS } from '../contract/limits.js';

type Block = CallToolResult['content'][number];

export function resultText(result: CallToolResult): string {
  const blocks = (result.content ?? []).map(blockText);
  const structured = result.structuredContent;
  const texts = (result.content ?? []).flatMap((block) => (block.type === 'text' ? [block.text] : []));
  if (structured !== undefined && !texts.some((text) => carries(text, structured))) {
    blocks.push(`[structured content] ${JSON.stringify(structured)}`);
  }
  return truncateBytes(blocks.join('\n') || '(the tool returned no content)', LIMITS.toolResultBytes);
}

/** The text says what the structured content says: it is its JSON, or its one field holds the same text. */
function carries(text: string, structured: Record<string, unknown>): boolean {
  const values = Object.values(structured);
  if (values.length === 1 && values[0] === text) return true;
  try {
    return equal(JSON.parse(text), structured);
  } catch {
    return false;
  }
}

function blockText(block: Block): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type}: ${block.mimeType}, ${base64Bytes(block.data)} bytes, not shown]`;
    case 'resource_link':
      return `[resource link: ${block.uri}${describe(block.name, block.mimeType)}]`;
    case 'resource': {
      const { resource } = block;
      if ('text' in resource && typeof resource.text === 'string') {
        return `[resource: ${resource.uri}${describe(undefined, resource.mimeType)}]\n${resource.text}`;
      }
      const size = 'blob' in resource && typeof resource.blob === 'string' ? `, ${base64Bytes(resource.blob)} bytes, not shown` : '';
      return `[resource: ${resource.uri}${describe(undefined, resource.mimeType)}${size}]`;
    }
    default:
      return `[${String((block as { type?: unknown }).type)} content, not shown]`;
  }
}

function describe(name: string | undefined, mimeType: string | undefined): string {
  const parts = [name, mimeType].filter((p): p is string => typeof p === 'string' && p.length > 0);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/** Bytes a base64 text decodes to. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
