/**
 * MCP tools as data, for the adapters that speak MCP (claude-ide, gemini-ide): each tool is a name, a
 * description, a zod input shape and a handler, and an adapter registers its table of tools at once.
 * The handler's arguments are typed by the tool's own shape.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

type InputShape = z.ZodRawShape | undefined;

/** What a tool's handler receives: the arguments its shape parsed (none for a tool without a shape). */
export type ToolArgs<Shape extends InputShape> = Shape extends z.ZodRawShape
  ? z.infer<z.ZodObject<Shape>>
  : Record<string, never>;

/** One tool as its module defines it: the handler's arguments typed by its own shape. */
export interface McpToolDefinition<Context, Shape extends InputShape> {
  readonly name: string;
  readonly description: string;
  /** Absent: the tool takes no arguments (tools/list shows an empty object schema). */
  readonly inputSchema?: Shape;
  handle(args: ToolArgs<Shape>, context: Context): Promise<CallToolResult>;
}

/**
 * A tool as a table holds it, whatever its shape. The method syntax of `handle` lets every definition
 * stand here; the SDK hands each handler only arguments its own shape has parsed.
 */
export interface McpTool<Context> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema?: z.ZodRawShape;
  handle(args: Record<string, unknown>, context: Context): Promise<CallToolResult>;
}

/** The `defineTool` of one adapter, whose tools all take the same context. */
export function toolDefiner<Context>() {
  return <Shape extends InputShape = undefined>(
    tool: McpToolDefinition<Context, Shape>,
  ): McpToolDefinition<Context, Shape> => tool;
}

/** Registers every tool of `tools` on `server`, each handler called with `context`. */
export function registerTools<Context>(
  server: McpServer,
  tools: readonly McpTool<Context>[],
  context: Context,
): void {
  for (const tool of tools) {
    const { name, description, inputSchema } = tool;
    if (inputSchema === undefined) {
      server.registerTool(name, { description }, () => tool.handle({}, context));
    } else {
      server.registerTool(name, { description, inputSchema }, (args) => tool.handle(args, context));
    }
  }
}

/** A tool answer of text parts. */
export function textResult(...parts: string[]): CallToolResult {
  return { content: parts.map((part) => ({ type: 'text' as const, text: part })) };
}

/** A tool answer of one text part holding `value` as JSON. */
export function jsonResult(value: unknown): CallToolResult {
  return textResult(JSON.stringify(value));
}

/** A refusal the client sees as a failed tool call (`isError`), with the reason as its text. */
export function toolError(message: string): CallToolResult {
  return { ...textResult(message), isError: true };
}
