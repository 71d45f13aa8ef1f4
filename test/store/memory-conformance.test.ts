import t from 'tap';
import { MemoryStore } from '../../src/store/memory-store';
import { storeConformance } from './store-conformance';

// The simulator's and benchmarks' store keeps the core's objects (no copies, nothing to reopen).
storeConformance(t, {
  name: 'memory', copies: false,
  persisted: (_t, write) => {
    const store = new MemoryStore();
    write(store);
    return Promise.resolve(store.load());
  },
});
