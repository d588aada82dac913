import '../common/base.css';
import './context.css';
import { asContextResult } from '../common/pm-data.js';
import { startView } from '../common/shell.js';
import { renderContext } from './context-render.js';

startView({ view: 'context', parse: asContextResult, render: renderContext });
