import '../common/base.css';
import './graph.css';
import { asGraphResult } from '../common/pm-data.js';
import { startView } from '../common/shell.js';
import { renderGraph } from './graph-render.js';

startView({
  view: 'graph',
  parse: asGraphResult,
  render: renderGraph,
  describe: (args) => [typeof args.id === 'string' ? args.id : 'project', typeof args.depth === 'number' ? `depth ${args.depth}` : '', typeof args.maxNodes === 'number' ? `at most ${args.maxNodes} items` : ''].filter(Boolean).join(' · '),
});
