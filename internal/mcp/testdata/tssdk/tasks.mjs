// Drives tmx-mcp's tasks with the TypeScript SDK's task API (MCP
// 2025-11-25): a run that outlasts the client's request timeout, followed
// to its result, and a run cancelled with tasks/cancel. Run by
// TestTaskTypeScriptSDK, which gives it the server command and its
// environment, and reads the JSON summary it prints.
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

const { TMX_MCP_CMD, TMX_MCP_ENV, PANE, FLAG, CLIENT_TIMEOUT_MS } = process.env;
const timeout = Number(CLIENT_TIMEOUT_MS);
const transport = new StdioClientTransport({ command: TMX_MCP_CMD, args: [], env: JSON.parse(TMX_MCP_ENV), stderr: 'ignore' });
const client = new Client({ name: 'tmx-ts-tasks', version: '0' }, { capabilities: {} });
await client.connect(transport);
const out = { protocolVersion: client.getServerVersion() && transport.sessionId, serverCapabilities: client.getServerCapabilities() };

const tools = await client.listTools();
out.taskSupport = Object.fromEntries(tools.tools.map((t) => [t.name, t.execution?.taskSupport ?? null]));

// A run past the client's request timeout: each request is short, the
// run is not. The command ends when FLAG exists, written once the run has
// gone on for twice the request timeout.
const began = Date.now();
const flagTimer = setInterval(() => {
  if (Date.now() - began > 2 * timeout) fs.writeFileSync(FLAG, '');
}, 100);
out.run = { statuses: [], progress: 0 };
const command = `echo started; while [ ! -e ${FLAG} ]; do sleep 0.2; done; echo finished`;
for await (const m of client.experimental.tasks.callToolStream(
  { name: 'run_shell_command', arguments: { target: PANE, command } },
  CallToolResultSchema,
  { task: { ttl: 600000 }, timeout, onprogress: (p) => { out.run.progress = Math.max(out.run.progress, p.progress); } },
)) {
  if (m.type === 'taskCreated') out.run.created = m.task;
  else if (m.type === 'taskStatus') out.run.statuses.push(m.task.status);
  else if (m.type === 'result') out.run.result = m.result;
  else if (m.type === 'error') out.run.error = String(m.error);
}
clearInterval(flagTimer);
out.run.elapsedMs = Date.now() - began;
if (out.run.created) {
  out.run.final = await client.experimental.tasks.getTask(out.run.created.taskId, { timeout });
  out.run.listed = (await client.experimental.tasks.listTasks(undefined, { timeout })).tasks.some((t) => t.taskId === out.run.created.taskId);
}

// A run cancelled while it sleeps.
out.cancel = { statuses: [] };
for await (const m of client.experimental.tasks.callToolStream(
  { name: 'run_shell_command', arguments: { target: PANE, command: 'sleep 600' } },
  CallToolResultSchema,
  { task: {}, timeout },
)) {
  if (m.type === 'taskCreated') {
    out.cancel.created = m.task;
    out.cancel.reply = await client.experimental.tasks.cancelTask(m.task.taskId, { timeout });
  } else if (m.type === 'taskStatus') out.cancel.statuses.push(m.task.status);
  else if (m.type === 'result') out.cancel.result = m.result;
  else if (m.type === 'error') out.cancel.error = String(m.error);
}
if (out.cancel.created) out.cancel.final = await client.experimental.tasks.getTask(out.cancel.created.taskId, { timeout });
await client.close();
process.stdout.write(JSON.stringify(out) + '\n');
