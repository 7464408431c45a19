"""redis-py's Lock (Lua scripts for release, extend and reacquire, loaded by SCRIPT LOAD and run by EVALSHA)
against the server on port argv[1], unchanged: exit 0 and a last line "OK ..." when every check holds."""
import sys
import threading

import redis
from redis.exceptions import LockNotOwnedError

r = redis.Redis(host="127.0.0.1", port=int(sys.argv[1]))

a = r.lock("lock:res", timeout=5)
assert a.acquire(blocking=False), "first acquire"
b = r.lock("lock:res", timeout=5, blocking_timeout=0.2)
assert not b.acquire(), "a held lock is not acquired twice"
assert a.owned() and a.locked() and not b.owned()
a.extend(10)
assert r.pttl("lock:res") > 9000, "extend adds to the ttl"
a.reacquire()
assert 4000 < r.pttl("lock:res") <= 5000, "reacquire resets the ttl"
a.release()
assert not r.exists("lock:res"), "release deletes the key"
assert b.acquire(), "free again"
# a token that does not own the lock: the release and extend scripts answer 0, redis-py raises
stale = r.lock("lock:res", timeout=5)
for op in (stale.release, lambda: stale.extend(1), stale.reacquire):
    stale.local.token = b"not-the-owner"  # release forgets the token before it asks
    try:
        op()
        raise AssertionError("a lock owned by another must not change")
    except LockNotOwnedError:
        pass
assert b.owned(), "still b's"
b.release()

# mutual exclusion: threads increment a plain GET/SET counter under the lock
r.set("lock:counter", 0)
THREADS, ROUNDS = 4, 50


def work():
    client = redis.Redis(host="127.0.0.1", port=int(sys.argv[1]))
    for _ in range(ROUNDS):
        with client.lock("lock:cnt", timeout=5, blocking_timeout=30, sleep=0.001):
            v = int(client.get("lock:counter"))
            client.set("lock:counter", v + 1)


ts = [threading.Thread(target=work) for _ in range(THREADS)]
for t in ts:
    t.start()
for t in ts:
    t.join()
total = int(r.get("lock:counter"))
assert total == THREADS * ROUNDS, total
print("OK redis-py %s lock: counter %d under %d threads" % (redis.__version__, total, THREADS))
