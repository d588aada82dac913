import '../shared/base.css';
import { renderBoard } from '../shared/board-render.js';
import { asListResult } from '../shared/pm-data.js';
import { startView } from '../shared/shell.js';

startView({ view: 'board', parse: asListResult, render: renderBoard });
