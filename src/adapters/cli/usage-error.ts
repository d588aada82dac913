import { EXIT, INVALID_PARAMS, PmError } from '../../domain/errors/pm-error.js';

/**
 * A command line that cannot be run as written: unknown command or option, a missing
 * argument, a value of the wrong shape. Exit 2, and the message points at the right --help.
 */
export class UsageError extends PmError {
  readonly jsonRpcCode = INVALID_PARAMS;
  readonly reason = 'usage';
  readonly exitCode = EXIT.usage;

  /** @param command the command whose --help explains the fix ('' for the general help) */
  constructor(message: string, command: string, data: Record<string, unknown> = {}) {
    super(message, { ...data, hint: command ? `pm ${command} --help` : 'pm --help' });
  }

  /** The help command to suggest, e.g. 'pm list --help'. */
  get hint(): string {
    return String(this.data.hint);
  }
}
