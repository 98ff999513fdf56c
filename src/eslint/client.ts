import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { Question, Reply } from './protocol.js';

/** A lint run's first question builds the project analysis: a large monorepo may take a while. */
const TIMEOUT_MS = 10 * 60 * 1000;

interface Connection {
  port: MessagePort;
  signal: Int32Array;
}

let connection: Connection | null = null;

function connect(): Connection {
  if (connection) return connection;
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(new URL('./lint-worker.js', import.meta.url), { workerData: { port: port2, signal }, transferList: [port2] });
  // The thread must not keep ESLint's process alive once linting is done.
  worker.unref();
  worker.on('error', () => {
    connection = null;
  });
  return (connection = { port: port1, signal });
}

/**
 * Ask the analysis thread and wait for its answer: ESLint calls rules synchronously, so the rule
 * blocks on a shared flag while the thread runs the (asynchronous) engine.
 */
export function ask(question: Question): Exclude<Reply, { error: string }> {
  const { port, signal } = connect();
  Atomics.store(signal, 0, 0);
  port.postMessage(question);
  const waited = Atomics.wait(signal, 0, 0, TIMEOUT_MS);
  const message = receiveMessageOnPort(port);
  if (!message) throw new Error(waited === 'timed-out' ? `v2-migrate: no answer for ${question.file} within ${TIMEOUT_MS / 60000} minutes` : 'v2-migrate: the analysis thread stopped');
  const reply = message.message as Reply;
  if ('error' in reply) throw new Error(`v2-migrate: ${reply.error}`);
  return reply;
}
