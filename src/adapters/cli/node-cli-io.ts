import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { CliEditor, CliIo } from './command.js';
import { NodeCliEditor } from './node-cli-editor.js';

/**
 * The real terminal: stdout/stderr writes that resolve once flushed (so the process can exit
 * right after without truncating piped output), stdin, files relative to `cwd`, and a
 * readline prompt on stderr for consent (stdout stays clean for data).
 */
export class NodeCliIo implements CliIo {
  constructor(
    private readonly cwd: string,
    private readonly stdin: NodeJS.ReadStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly stderr: NodeJS.WritableStream = process.stderr,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** Colors only on a terminal, and never when NO_COLOR is set to anything (https://no-color.org). */
  get color(): boolean {
    return (this.stdout as NodeJS.WriteStream).isTTY === true && !this.env.NO_COLOR;
  }

  get editor(): CliEditor {
    return new NodeCliEditor(this.env);
  }

  get interactive(): boolean {
    return this.stdin.isTTY === true;
  }

  write(text: string): Promise<void> {
    return writeTo(this.stdout, text);
  }

  writeError(text: string): Promise<void> {
    return writeTo(this.stderr, text);
  }

  async readStdin(): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
    return Buffer.concat(chunks).toString('utf8');
  }

  readFile(path: string): Promise<string> {
    return readFile(resolve(this.cwd, path), 'utf8');
  }

  async confirm(question: string): Promise<boolean> {
    const prompt = createInterface({ input: this.stdin, output: this.stderr, terminal: true });
    try {
      const answer = await prompt.question(question);
      return /^\s*y(es)?\s*$/i.test(answer);
    } finally {
      prompt.close();
    }
  }
}

function writeTo(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((done, fail) => {
    stream.write(text, (error) => (error ? fail(error) : done()));
  });
}
