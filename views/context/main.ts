import '../shared/base.css';
import './context.css';
import { asContextResult } from '../shared/pm-data.js';
import { startView } from '../shared/shell.js';
import { renderContext } from './context-render.js';

startView({ view: 'context', parse: asContextResult, render: renderContext });
