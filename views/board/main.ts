import '../common/base.css';
import { renderBoard } from '../common/board-render.js';
import { asListResult } from '../common/pm-data.js';
import { startView } from '../common/shell.js';

startView({ view: 'board', parse: asListResult, render: renderBoard });
