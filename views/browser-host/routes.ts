/**
 * The live board's places (docs/APPS.md "The board in the browser"): one per view, addressed by
 * the URL fragment so the browser's Back and Forward, bookmarks and links work without the page
 * ever asking the server for another document.
 */

/** Where the page is: a view and the arguments of its tool. */
export interface Route {
  readonly view: 'context' | 'board' | 'graph' | 'item' | 'history';
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly label: string;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** The route of a fragment (`#/board`, `#/item/pm-a1b2`, …); the dashboard for anything else. */
export function routeOf(hash: string): Route {
  const [, view = '', id = ''] = hash.replace(/^#/, '').split('/');
  const item = decodeURIComponent(id);
  if (view === 'board') return { view: 'board', tool: 'pm_list', args: {}, label: 'Board' };
  if (view === 'graph') return { view: 'graph', tool: 'pm_graph', args: {}, label: 'Graph' };
  if (view === 'item' && ID.test(item)) return { view: 'item', tool: 'pm_get', args: { id: item }, label: `Item ${item}` };
  if (view === 'history' && ID.test(item)) return { view: 'history', tool: 'pm_history', args: { id: item }, label: `History of ${item}` };
  return { view: 'context', tool: 'pm_context', args: {}, label: 'Dashboard' };
}

/** The fragment of a route. */
export function hashOf(route: Pick<Route, 'view' | 'args'>): string {
  const id = typeof route.args.id === 'string' ? `/${encodeURIComponent(route.args.id)}` : '';
  return `#/${route.view}${id}`;
}
