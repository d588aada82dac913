/** Number, date and plural formatting in the host's locale and time zone (MCP Apps 2026-01-26 §Host Context). */

export interface Locale {
  readonly locale: string | undefined;
  readonly timeZone: string | undefined;
}

let current: Locale = { locale: undefined, timeZone: undefined };
let dates: Intl.DateTimeFormat | undefined;

/** Sets the locale and time zone from the host context (invalid values fall back to the browser's). */
export function setLocale(next: Locale): void {
  if (next.locale === current.locale && next.timeZone === current.timeZone) return;
  current = next;
  dates = undefined;
}

function dateFormat(): Intl.DateTimeFormat {
  if (dates) return dates;
  try {
    dates = new Intl.DateTimeFormat(current.locale, { dateStyle: 'medium', timeStyle: 'short', ...(current.timeZone ? { timeZone: current.timeZone } : {}) });
  } catch {
    dates = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  }
  return dates;
}

/** An ISO time as a readable date and time (the ISO text when it does not parse). */
export function formatDate(iso: string | undefined): string {
  if (!iso) return '';
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : dateFormat().format(time);
}

/** `1 item`, `3 items`. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}

export function formatNumber(n: number): string {
  try {
    return n.toLocaleString(current.locale);
  } catch {
    return String(n);
  }
}

/** A status name for people: `in_progress` → `in progress`. */
export function statusLabel(status: string): string {
  return status.replace(/_/g, ' ');
}
