/** Where a progress bar draws: a terminal's stderr (anything with write). */
export interface ProgressStream {
  write(text: string): unknown;
}

const WIDTH = 30;

/**
 * A one-line progress bar for long index rebuilds (docs/TRACKER.md "The derived index"): the
 * first query after a fresh clone reads every item file, a minute at 100k items. Redrawn in place
 * at most once per percent; the line is cleared when the work is done, so the command's own output
 * starts on a clean line. Only drawn on a terminal (the CLI passes it only when stderr is a TTY).
 */
export function progressBar(stream: ProgressStream, label: string): (done: number, total: number) => void {
  let shown = -1;
  return (done, total) => {
    const percent = total > 0 ? Math.floor((done * 100) / total) : 100;
    if (percent === shown && done < total) return;
    shown = percent;
    const filled = Math.round((Math.min(done, total) / Math.max(total, 1)) * WIDTH);
    stream.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${done}/${total} (${percent}%)`);
    if (done >= total) stream.write('\r\u001b[K');
  };
}
