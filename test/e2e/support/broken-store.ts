// A store whose every operation fails, as Redis down does: the popup relay's store, for the
// tests of an outage (service_unavailable).
import { createStorage, type Storage } from 'unstorage';

export function brokenStore(): Storage {
  const down = () => {
    throw new Error('ECONNREFUSED');
  };
  return createStorage({
    driver: { name: 'down', hasItem: down, getItem: down, setItem: down, removeItem: down, getKeys: down, clear: down },
  });
}
