import '../common/base.css';
import { renderItemDetail } from '../common/item-detail.js';
import { asItemResult } from '../common/pm-data.js';
import { startView } from '../common/shell.js';

startView({ view: 'item', parse: asItemResult, render: renderItemDetail, describe: (args) => (typeof args.id === 'string' ? args.id : undefined) });
