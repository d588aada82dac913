import '../common/base.css';
import { renderHistory } from '../common/history-timeline.js';
import { asHistoryResult } from '../common/pm-data.js';
import { startView } from '../common/shell.js';

startView({ view: 'history', parse: asHistoryResult, render: renderHistory, describe: (args) => (typeof args.id === 'string' ? args.id : undefined) });
