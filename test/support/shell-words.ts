/**
 * The simple commands of one shell line, as words: quotes removed, split at `|`, `&&`, `;`,
 * `$(`, `(`, `)` and backticks, redirections (`< file`, `> file`, `2>&1`) and comments dropped,
 * leading `NAME=value` assignments dropped. Enough to find every `pm …` invocation in the
 * skills' examples; `<id>` (no space after `<`) stays a word, as the placeholder it is.
 */
export function shellCommands(line: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word: string | undefined;
  let skipNext = false;
  const endWord = () => {
    if (word === undefined) return;
    if (skipNext) skipNext = false;
    else words.push(word);
    word = undefined;
  };
  const endCommand = () => {
    endWord();
    while (words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) words.shift();
    if (words.length) commands.push(words);
    words = [];
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      const stop = end < 0 ? line.length : end;
      word = (word ?? '') + line.slice(i + 1, stop);
      i = stop;
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else if (/\s/.test(c)) {
      endWord();
    } else if (c === '#' && word === undefined) {
      break;
    } else if ('|&;()`'.includes(c) || (c === '$' && line[i + 1] === '(')) {
      endCommand();
      if (c === '$') i++;
    } else if (c === '<' && word === undefined && /[A-Za-z]/.test(line[i + 1] ?? '')) {
      word = c;
    } else if (c === '>' && word?.startsWith('<') && !word.includes('>')) {
      word += c;
    } else if (c === '<' || c === '>') {
      endWord();
      while (line[i + 1] === '>' || line[i + 1] === '&') i++;
      if (/[0-9]/.test(line[i + 1] ?? '')) i++;
      else skipNext = true;
    } else {
      word = (word ?? '') + c;
    }
  }
  endCommand();
  return commands;
}

/** Joins continuation lines (ending in a backslash) and strips a leading `$ ` prompt. */
export function shellLines(block: string): string[] {
  return block.replace(/\\\n/g, ' ').split('\n').map((line) => line.replace(/^\s*\$\s+/, ''));
}
