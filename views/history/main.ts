import '../shared/base.css';
import { renderHistory } from '../shared/history-timeline.js';
import { asHistoryResult } from '../shared/pm-data.js';
import { startView } from '../shared/shell.js';

startView({ view: 'history', parse: asHistoryResult, render: renderHistory, describe: (args) => (typeof args.id === 'string' ? args.id : undefined) });
