import type { CliIo } from '../../src/adapters/cli/command.js';

/** A CliIo that records output and answers prompts from a script (CLI unit tests). */
export class FakeCliIo implements CliIo {
  stdout = '';
  stderr = '';
  readonly questions: string[] = [];

  constructor(
    private readonly options: { stdin?: string; files?: Record<string, string>; interactive?: boolean; answers?: boolean[]; color?: boolean } = {},
  ) {}

  get color(): boolean {
    return this.options.color ?? false;
  }

  get interactive(): boolean {
    return this.options.interactive ?? false;
  }

  async write(text: string): Promise<void> {
    this.stdout += text;
  }

  async writeError(text: string): Promise<void> {
    this.stderr += text;
  }

  async readStdin(): Promise<string> {
    return this.options.stdin ?? '';
  }

  async readFile(path: string): Promise<string> {
    const text = this.options.files?.[path];
    if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
    return text;
  }

  async confirm(question: string): Promise<boolean> {
    this.questions.push(question);
    return this.options.answers?.shift() ?? false;
  }
}
