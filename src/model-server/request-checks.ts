/**
 * Checks the real API makes and the scripted server must make too, so a request our code builds wrongly fails
 * here the way it would fail against OpenAI.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ChatRequest } from './chat-request.js';

export interface RequestProblem {
  message: string;
  param: string | null;
  code: string | null;
}

const ajv = new Ajv2020({ strict: false, validateSchema: true, logger: false });

export function findRequestProblem(request: ChatRequest): RequestProblem | undefined {
  if (request.messages.length === 0) {
    return {
      message: "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      param: 'messages',
      code: 'empty_array',
    };
  }
  if (request.stream_options && !request.stream) {
    return {
      message: "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
      param: 'stream_options',
      code: null,
    };
  }
  return checkTools(request) ?? checkToolCallPairing(request);
}

function checkTools(request: ChatRequest): RequestProblem | undefined {
  for (const [i, tool] of (request.tools ?? []).entries()) {
    const { name, parameters } = tool.function;
    const reason = schemaProblem(parameters);
    if (reason) {
      return {
        message: `Invalid schema for function '${name}': ${reason}`,
        param: `tools[${i}].function.parameters`,
        code: 'invalid_function_parameters',
      };
    }
  }
  return undefined;
}

function schemaProblem(parameters: unknown): string | undefined {
  if (parameters === undefined) return 'no parameters schema was given.';
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) {
    return 'parameters must be a JSON Schema object.';
  }
  if ((parameters as { type?: unknown }).type !== 'object') {
    return 'schema must be a JSON Schema of \'type: "object"\', got \'type: "' + String((parameters as { type?: unknown }).type) + '"\'.';
  }
  try {
    ajv.compile(parameters);
  } catch (err) {
    return (err as Error).message;
  }
  return undefined;
}

/** Every assistant tool call is answered by a tool message before the next non-tool message, and only then. */
function checkToolCallPairing(request: ChatRequest): RequestProblem | undefined {
  let open: string[] = [];
  let openAt = -1;
  const unanswered = (): RequestProblem => ({
    message:
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. " +
      `The following tool_call_ids did not have response messages: ${open.join(', ')}`,
    param: `messages.[${openAt}].role`,
    code: null,
  });
  for (const [i, message] of request.messages.entries()) {
    if (message.role === 'tool') {
      const at = open.indexOf(message.tool_call_id);
      if (at === -1) {
        return {
          message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          param: `messages.[${i}].role`,
          code: null,
        };
      }
      open.splice(at, 1);
      continue;
    }
    if (open.length > 0) return unanswered();
    if (message.role === 'assistant' && message.tool_calls?.length) {
      open = message.tool_calls.map((call) => call.id);
      openAt = i;
    }
  }
  return open.length > 0 ? unanswered() : undefined;
}
