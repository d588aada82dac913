import '../shared/base.css';
import { renderItemDetail } from '../shared/item-detail.js';
import { asItemResult } from '../shared/pm-data.js';
import { startView } from '../shared/shell.js';

startView({ view: 'item', parse: asItemResult, render: renderItemDetail, describe: (args) => (typeof args.id === 'string' ? args.id : undefined) });
