#!/usr/bin/env node
// Kept for scripts written before the bins became CommonJS: runs bin/pm.cjs (the `pm` bin).
import { createRequire } from 'node:module';

createRequire(import.meta.url)('./pm.cjs');
