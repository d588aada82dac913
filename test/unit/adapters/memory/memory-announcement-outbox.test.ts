import { MemoryAnnouncementOutbox } from '../../../../src/adapters/memory/memory-announcement-outbox.js';
import { describeAnnouncementOutboxContract } from '../announcement-outbox-contract.js';

describeAnnouncementOutboxContract('MemoryAnnouncementOutbox', async ({ overflowMessage, maxEntries }) => new MemoryAnnouncementOutbox(overflowMessage, maxEntries));
