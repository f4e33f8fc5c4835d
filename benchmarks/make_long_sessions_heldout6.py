"""Write tests/data/long_sessions_heldout6.json: a sixth held-out set of developer chat, written by hand.

The sessions are one person's chat with a coding assistant over nine months (October 2024 to June 2025): a
gameplay programmer at a small indie studio in Glasgow making a co-op roguelite in Unity, its netcode, Steam
Deck performance, a Perforce to Git LFS move, a Steam Next Fest demo, a publisher deal, a Unity 6 upgrade, a
new technical director, a move to Edinburgh, a rescue greyhound, an evening Blender course, a game jam and a
sister's wedding. Nothing was tuned on it (tests/data/junk_facts/README.md, fresh13). Each question's haystack
is its supporting sessions and four others, in date order, so the set serves as a recall set too.

    .venv/bin/python benchmarks/make_long_sessions_heldout6.py
"""

from __future__ import annotations

from pathlib import Path

from long_sessions_kit import A, Question, Sessions, U, questions, write

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "long_sessions_heldout6.json"
QUESTION_DATE = "2025-07-01 09:30"
OTHERS = 4  # sessions in each haystack besides the supporting ones
SEED = 6

# session id -> (its date, its turns), in the order written
SESSIONS = Sessions()


SESSIONS.add(
    "team-01", "2024-10-02 10:12",
    U("""hi! some context first since I'll be using you a lot. I'm a gameplay programmer at Lanternfish Games, we're 11 people in Glasgow (office in the Merchant City). We're making Tidebreak, a co-op roguelite for up to 4 players, you're a salvage crew diving into drowned ruins. Unity 2022.3 LTS, URP, C#. My manager is Callum, he's one of the two co-founders. Early Access target is April 24, 2025.

First thing: I need to write an onboarding doc for the two contractors joining next month. Can you give me a skeleton?"""),
    A("""Happy to help. Here's a skeleton that works well for a small Unity team where people need to be productive in their first week:

**1. Welcome and what Tidebreak is**
- One paragraph pitch, the core loop (dive, salvage, extract, upgrade), and a link to the latest gameplay capture.
- Who's who: a short table of names, roles and what to ask each person about.

**2. Getting the project running**
- Required Unity version (pin the exact patch, e.g. 2022.3.x f1) and modules (Windows/Linux build support, IL2CPP).
- Version control client setup and workspace mapping.
- First open: expected import time, known warnings you can ignore.

**3. Project layout**
- `Assets/_Project/` vs third-party folders, assembly definitions, where scenes live.
- Naming conventions for prefabs, ScriptableObjects and addressables.

**4. How we work**
- Branching / changelist rules, code review, who approves what.
- Definition of done for a gameplay task (playtested in co-op, no new console errors, profiler check on the Deck build if relevant).

**5. Systems overview**
- Netcode model (who is authoritative for what), save system, enemy AI, run generation.
- One diagram per system is worth more than pages of text.

**6. First tasks**
- A curated list of 3–5 starter bugs with context.

**7. Where to ask**
- Channels, meeting times, and a note that asking early is expected.

If you tell me which netcode stack and version control you're on I can fill in sections 2 and 5 with specifics."""),
    U("netcode for gameobjects 1.9.1, perforce (helix core). fill in 2 pls, short"),
    A("""**2. Getting the project running**

1. Install Unity Hub, then Unity **2022.3 LTS** (exact patch in `ProjectSettings/ProjectVersion.txt`) with Windows Build Support (IL2CPP) and Linux Build Support.
2. Install P4V and ask Callum for a Helix Core account. Create a workspace with root `D:\\Lanternfish\\Tidebreak` and map only `//tidebreak/main/...` (the `//tidebreak/art-source/...` depot is 200+ GB of PSDs and you don't need it).
3. Get latest, then open the project from Unity Hub. The first import takes 25–40 minutes; warnings from `Packages/com.unity.netcode.gameobjects` about obsolete APIs are known.
4. Open `Assets/_Project/Scenes/Boot.unity` and press Play. Use the `Tools > Tidebreak > Start Host + Client` menu to test co-op locally with ParrelSync.
5. If you see pink materials, run `Edit > Rendering > Materials > Convert...` only after asking: it usually means the URP asset didn't import, not that the materials are broken."""),
    U("perfect thx"),
    A("""You're welcome. One more suggestion: put the doc in the repo (e.g. `Docs/Onboarding.md`) rather than a wiki, so it changes in the same commits as the things it describes."""),
    U("we don't have a wiki anyway, just a google drive nobody can search. repo it is"),
)

SESSIONS.add(
    "net-01", "2024-10-08 15:40",
    U("""Projectiles desync between host and clients. Host sees the harpoon hit, client sees it miss by like half a metre. Log from the client:

```
[Netcode] NetworkObject 4412 (HarpoonProjectile) spawned at tick 18842
[Tidebreak] Harpoon fired by client 1 at (12.41, 3.02, -7.88) dir (0.71, 0.00, 0.70)
[Tidebreak] Harpoon 4412 local pos at tick 18850: (15.62, 3.02, -4.71)
[Tidebreak] Harpoon 4412 server pos at tick 18850: (16.08, 3.02, -4.26)
[Tidebreak] HIT on host: Eel_03 (hp 40 -> 15)
[Tidebreak] MISS on client 1
```

We spawn the projectile on the client and then ask the server to spawn the networked one. Tick rate is 30."""),
    A("""Let me walk through what the log shows. At tick 18850 the local and server positions differ by about 0.46 m along the firing direction (0.46/0.71 ≈ 0.65 m of travel), which is close to what you'd expect from one round trip at your projectile speed. So the client's local projectile and the server's projectile are simulating the same path but started at different times.

The root cause is the pattern itself: the client spawns a local harpoon immediately, then sends a ServerRpc, and the server spawns the authoritative one when the RPC arrives. The server's harpoon starts RTT/2 later and from the player's *server-side* position, which also lags. Hit detection runs on the server, so the host's view wins and the client sees a "miss" that actually hit.

Options, roughly in order of effort:

1. **Server-authoritative with spawn-time rewind.** Send the fire tick with the RPC. On the server, advance the projectile by `(serverTick - fireTick) * dt` on spawn so it lines up with where the client's local copy is. This fixes most of the visible mismatch.
2. **Hide the local copy once the networked one arrives.** Keep the local harpoon purely cosmetic and swap to the networked one when it spawns, lerping over a few frames.
3. **Lag compensation for hits.** Keep a short history (say 500 ms) of enemy hitboxes on the server and test hits against where enemies were at the fire tick.

NGO 1.9 doesn't give you prediction or rollback out of the box, so 1 and 2 are on you. I'd start with 1, because it's a small change in `HarpoonLauncher.FireServerRpc` and it should take most of the half metre away."""),
    U("ok do 1, here's the rpc\n\n```csharp\n[ServerRpc]\nvoid FireServerRpc(Vector3 origin, Vector3 dir) {\n    var h = Instantiate(harpoonPrefab, origin, Quaternion.LookRotation(dir));\n    h.GetComponent<NetworkObject>().Spawn();\n}\n```"),
    A("""Here's the rewound version. The client sends the tick it fired on, and the server moves the projectile forward by the elapsed time before spawning it:

```csharp
[ServerRpc]
void FireServerRpc(Vector3 origin, Vector3 dir, int fireTick)
{
    var tickSystem = NetworkManager.NetworkTickSystem;
    int elapsedTicks = Mathf.Clamp(tickSystem.ServerTime.Tick - fireTick, 0, MaxRewindTicks);
    float elapsed = elapsedTicks / (float)tickSystem.TickRate;

    var position = origin + dir * (harpoonSpeed * elapsed);
    var harpoon = Instantiate(harpoonPrefab, position, Quaternion.LookRotation(dir));
    harpoon.GetComponent<HarpoonProjectile>().SkipAhead(elapsed);
    harpoon.GetComponent<NetworkObject>().Spawn();
}
```

`MaxRewindTicks` matters: clamp it (e.g. 9 ticks = 300 ms at 30 Hz) so a client on a bad connection can't fire "from the past" through a wall. `SkipAhead` should also run the projectile's collision sweep over the skipped distance, otherwise it can tunnel through an eel it should have hit during the skipped time."""),
    U("works way better. still see a tiny gap on 150ms ping but I can live with it"),
    A("""That residual gap at 150 ms is the part option 2 would hide: the local harpoon is visible for one round trip before the server's copy exists. If it bothers playtesters, make the local copy cosmetic and blend to the networked one over ~100 ms when it spawns. If nobody notices, leave it."""),
    U("nobody noticed in the office test. leaving it"),
)

SESSIONS.add(
    "perf-01", "2024-10-15 11:03",
    U("""Profiling on Steam Deck. FYI I bought an OLED Deck for testing with my own money (£479) since the studio only has one LCD Deck and the artists hog it. Our target on Deck is 30 fps. Here's the profiler hierarchy for a bad frame in the Flooded Archive room:

```
CPU Usage                                  Total   Self   Calls  GC Alloc  Time ms
PlayerLoop                                 100.0%   1.2%      1   412.6 KB   48.31
  Update.ScriptRunBehaviourUpdate           61.4%   0.3%      1   398.0 KB   29.66
    BehaviourUpdate                         61.1%   2.1%      1   398.0 KB   29.52
      EnemySpawner.Update()                 31.7%  12.4%     14   301.2 KB   15.31
        Enumerable.Where / ToList           18.9%  18.9%    420   288.4 KB    9.13
      HarpoonProjectile.Update()            14.2%   9.8%     96    76.8 KB    6.86
        Object.Instantiate                   4.1%   4.1%     12    21.0 KB    1.98
      EelAI.Update()                         9.6%   9.6%     22     8.0 KB    4.64
  GC.Collect                                12.8%  12.8%      1       0 B     6.18
  Gfx.WaitForPresentOnGfxThread              9.3%   9.3%      1       0 B     4.49
```

where do I start"""),
    A("""Let me go through this frame from the top. 48 ms against a 33.3 ms budget, and the biggest thing isn't rendering at all: it's script time and garbage.

**What the numbers say**

- `EnemySpawner.Update()` is 15.3 ms across 14 calls, and 9.1 ms of that is `Enumerable.Where / ToList`, called 420 times and allocating 288 KB. That's LINQ rebuilding lists every frame, probably "find all enemies in range" or "find free spawn points".
- `HarpoonProjectile.Update()` is 6.9 ms for 96 projectiles, with `Object.Instantiate` inside it: something spawns per-frame from within projectile updates (impact VFX or debris?).
- `GC.Collect` at 6.2 ms is the bill for the ~412 KB you allocate this frame. On the Deck's CPU the incremental GC helps less than you'd like when you allocate this much.
- Rendering (`WaitForPresent` 4.5 ms) is fine for now.

**Fixes, in order**

1. **Kill the LINQ in `EnemySpawner`.** Keep persistent `List<T>` buffers and fill them with plain loops; or better, keep a registry of live enemies that enemies add themselves to in `OnEnable` and remove in `OnDisable`, so the spawner never searches. This alone should take ~9 ms and most of the garbage away.
2. **Pool projectiles and impact effects.** With 96 live harpoons and bursts during the Archive fights, I'd pre-warm a pool of **256 projectiles** at run start (that's your worst case with 4 players and the rapid-fire upgrade, plus headroom) and a pool of 64 impact VFX. Use `UnityEngine.Pool.ObjectPool<T>` (built into 2022.3) so you don't write your own. For networked projectiles, NGO has `INetworkPrefabInstanceHandler` so the pool works with `Spawn()`/`Despawn()` instead of `Instantiate`/`Destroy`.
3. **Batch the per-object `Update()` calls.** 96 `HarpoonProjectile.Update()` calls is not terrible, but a single `ProjectileManager` that moves every projectile in one loop (or a Burst job later) cuts overhead and makes the code easier to profile.
4. **Then re-profile** with Deep Profile off and the Deck build in Development mode with autoconnect. Deep Profile inflates small calls a lot.

After 1 and 2, I'd expect this frame to be around 28–30 ms, which gets you to the 30 fps target in this room; the remaining headroom would come from the EelAI update and from rendering."""),
    U("the spawner thing is embarrassing lol. it was `enemies.Where(e => e.IsAlive && Vector3.Distance(...) < r).ToList()` inside a foreach"),
    A("""That's a very common one, don't worry. Inside a foreach over 14 spawners that's 14 list allocations plus closure allocations each frame. A drop-in replacement:

```csharp
private readonly List<Enemy> _nearby = new(64);

void CollectNearby(Vector3 center, float radius)
{
    _nearby.Clear();
    float r2 = radius * radius;
    var live = EnemyRegistry.Live;  // List<Enemy>, maintained in OnEnable/OnDisable
    for (int i = 0; i < live.Count; i++)
    {
        var e = live[i];
        if ((e.transform.position - center).sqrMagnitude < r2) _nearby.Add(e);
    }
}
```

Squared distance avoids the square root, and the registry means you never need the `IsAlive` check (dead enemies are disabled, so they've left it)."""),
    U("ok will report back"),
    A("""One more thing for the Deck specifically: profile with the Deck on battery and at its default TDP, not docked and plugged in. The CPU clocks differently and your numbers will look rosier than what players get."""),
    U("oh good point, I always profile docked because the cable reaches. will do it on battery"),
    A("""And log the frame time to a file during an automated fly-through of the Archive room (a recorded input replay works), so you can compare builds with the same route instead of eyeballing the profiler."""),
    U("we have an input replay tool from the jam build, I'll hook it up"),
)

SESSIONS.add(
    "life-01", "2024-10-22 20:45",
    U("""not work stuff tonight. My partner Sam just got offered a postdoc at the University of Edinburgh (marine ecology, starts in January) so we're moving from Glasgow to Edinburgh. I'll keep my job, the studio is fine with me being hybrid and coming into the Glasgow office twice a week. We also want to adopt a retired greyhound once we've moved, so we need a flat that allows dogs. Can you help me make a checklist for flat hunting?"""),
    A("""Congratulations to Sam! Here's a flat-hunting checklist tuned for your situation (hybrid commuter, dog on the way, Edinburgh rental market):

**Location**
- Walking distance to Waverley or Haymarket: the Glasgow Queen Street trains leave from both, every 15 minutes at peak, ~50 minutes. Haymarket saves a few minutes westbound.
- Commute for Sam to the university (King's Buildings is south, the main campus central: check which one).
- Green space nearby for the dog: the Meadows, Holyrood Park, Leith Links, Inverleith Park.

**The flat**
- Pets allowed **in writing** in the tenancy, not just the agent saying "should be fine".
- A separate room or corner you can use as an office with a door, since you'll work from home three days a week.
- Broadband: check Openreach/Hyperoptic availability for the exact address; you'll want upload speed for pushing builds.
- Ground floor or lift, if possible: greyhounds can be nervous on open tenement stairs at first.
- Heating type and EPC rating (many tenement flats are EPC D or worse; it matters in winter).

**Money and paperwork**
- Deposit (max two months' rent in Scotland, held in a deposit scheme).
- Private Residential Tenancy: no fixed end date, 28 days' notice from you.
- Some landlords ask for a higher rent rather than a pet deposit; compare total cost.

**The dog side**
- Greyhound rescues (e.g. the Scottish branches of Greyhound Trust) usually do a home check; a garden is not always required, but secure outdoor space helps.
- Note the nearest vet and how far the nearest enclosed field is.

Want me to turn this into a table you can fill in per viewing?"""),
    U("yes pls, table with columns for each flat"),
    A("""| | Flat 1 | Flat 2 | Flat 3 |
|---|---|---|---|
| Address / area | | | |
| Rent (pcm) | | | |
| Pets allowed in writing | | | |
| Minutes to Haymarket/Waverley | | | |
| Sam's commute (min) | | | |
| Office room with door | | | |
| Broadband (down/up) | | | |
| Floor / stairs | | | |
| EPC rating | | | |
| Green space within 10 min | | | |
| Deposit | | | |
| Available from | | | |
| Notes | | | |

Fill it in right after each viewing; details blur fast when you see four flats in one Saturday."""),
    U("also how early should we start looking? move is start of january"),
    A("""In Edinburgh, rentals are usually advertised 3–6 weeks before they're available, so for a start-of-January move, look seriously from mid-November and be ready to decide on the spot at viewings in early December. Have references, proof of income and ID ready as PDFs before your first viewing; good pet-friendly flats go within a day or two."""),
    U("ok, references doc ready by mid nov. thanks!"),
)

SESSIONS.add(
    "save-01", "2024-10-29 14:20",
    U("""our save files are JSON via Newtonsoft and they're getting big. a late-game save:

{
  "version": 7,
  "profile": {"id": "b1f0c2", "unlocks": 214, "playtimeSeconds": 148822},
  "runs": [ ...412 entries... ],
  "codex": { ...1,906 entries... },
  "settings": {"fov": 90, "subtitles": true, "colorblind": "none"}
}

it's 2.3 MB and saving takes 180 ms on the Deck which causes a hitch at the end of every dive. Thoughts?"""),
    A("""180 ms on the main thread at the moment the player extracts is very noticeable, so it's worth fixing. Let me split it into the two problems: size and where the work happens.

**Why it's slow**
- Newtonsoft serialises via reflection and builds strings; a 2.3 MB document means several MB of temporary allocations, which then trigger a GC on top.
- `runs` with 412 entries is run *history* that grows forever. Most of the file is probably that plus the codex.

**What I'd do**

1. **Move the save off the main thread.** Snapshot the data into plain C# objects on the main thread (cheap), then serialise and write on a background thread with `Task.Run`. Write to `save.tmp`, then `File.Replace` it over `save.dat` so a crash mid-write never corrupts the save.
2. **Switch the format to MessagePack.** I'd recommend **MessagePack-CSharp with LZ4 compression** (`MessagePackCompression.Lz4BlockArray`). It's binary, uses generated formatters (works with IL2CPP if you run its source generator / mpc), and is typically 5–10x faster than Newtonsoft with far less garbage. A file like yours usually ends up 300–500 KB.
3. **Split the file.** Keep `profile` + `settings` in one small file written often, and `runs`/`codex` in another written only when they change. Cap run history (e.g. last 100 runs in detail, older ones summarised into totals).
4. **Keep a version field and a migration path.** You're at version 7; add a `v7 JSON -> v8 MessagePack` migration that reads old saves once and writes the new format, and keep the JSON reader for a couple of releases.

The background write alone removes the hitch; MessagePack and the split keep it from coming back as saves keep growing."""),
    U("does messagepack work with steam cloud? we sync the save folder"),
    A("""Yes. Steam Cloud (Auto-Cloud) just syncs files matching the paths and patterns you configure in Steamworks; it doesn't care about the format. Two things to check:

- Add the new file names/extension to the Auto-Cloud patterns (e.g. `*.dat` if you were syncing `*.json`), or the new files won't be uploaded.
- Keep the temp file out of the pattern (`save.tmp`) so Steam never uploads a half-written file."""),
    U("how big a change is the messagepack switch with IL2CPP? I remember AOT issues with serialisers"),
    A("""That's the right worry. IL2CPP can't generate code at runtime, so serialisers that use reflection.emit break. MessagePack-CSharp handles it with **ahead-of-time generated formatters**:

1. Annotate your save classes with `[MessagePackObject]` and `[Key(n)]` on each member (integer keys are smaller and faster than string keys).
2. Use the source generator (MessagePack v3) or run `mpc` (v2) as a build step to generate the formatters.
3. Register the generated resolver at startup:

```csharp
var resolver = CompositeResolver.Create(GeneratedResolver.Instance, StandardResolver.Instance);
var options = MessagePackSerializerOptions.Standard
    .WithResolver(resolver)
    .WithCompression(MessagePackCompression.Lz4BlockArray);
```

4. Keep that `options` instance as the single one used for both reading and writing.

Test a save/load round trip in an IL2CPP build on the Deck early, not in the editor (which runs Mono and hides AOT problems)."""),
    U("noted. integer keys it is"),
)

SESSIONS.add(
    "misc-01", "2024-11-01 17:55",
    U("""git question (my side project, not work, work is still perforce). what happened here

```
$ git pull --rebase
Auto-merging src/Board.gd
CONFLICT (content): Merge conflict in src/Board.gd
error: could not apply 3f9c2e1... tiles snap to grid
hint: Resolve all conflicts manually, mark them as resolved with
hint: "git add/rm <conflicted_files>", then run "git rebase --continue".
hint: You can instead skip this commit: run "git rebase --skip".
hint: To abort and get back to the state before "git rebase", run "git rebase --abort".
Could not apply 3f9c2e1... tiles snap to grid
$ git status
interactive rebase in progress; onto 8a1d0b4
Last command done (1 command done):
   pick 3f9c2e1 tiles snap to grid
No commands remaining.
You are currently rebasing branch 'main' on '8a1d0b4'.
```"""),
    A("""You ran `git pull --rebase`, so Git fetched the remote `main` (which ends at `8a1d0b4`) and is replaying your local commit `3f9c2e1 "tiles snap to grid"` on top of it. Your commit and a remote commit both changed the same lines of `src/Board.gd`, so it stopped.

To finish:

```
# open src/Board.gd, fix the <<<<<<< ======= >>>>>>> sections
git add src/Board.gd
git rebase --continue
```

or, if you'd rather go back to where you were and think about it: `git rebase --abort`.

Note that during a rebase "ours" and "theirs" are swapped compared to a merge: `<<<<<<< HEAD` is the remote's version (the base you're replaying onto) and the bottom half is your commit."""),
    U("ah that swap is what confused me. done, thanks"),
    A("It trips everyone up at least once. `git checkout --ours/--theirs` have the same swap during a rebase, so it's worth remembering."),
    U("also is there a way to make pull always rebase so I don't forget the flag"),
    A("""Yes: `git config --global pull.rebase true`. And `git config --global rebase.autoStash true` so a pull with uncommitted changes stashes and restores them around the rebase instead of refusing."""),
    U("set both. ty"),
)

SESSIONS.add(
    "ai-01", "2024-11-08 13:30",
    U("""we use a homemade behaviour tree for enemies and the eels get stuck circling pillars. each tick they pick the nearest player, get a path from NavMesh, and move. I think the problem is they re-path every tick (30/s) and the path flips between going left and right around the pillar. could you suggest a fix"""),
    A("""That diagnosis sounds right: two near-equal paths around a symmetric obstacle and a re-path every tick is the classic recipe for dithering. Fixes that work well together:

1. **Re-path less often and on events.** Re-path every 0.3–0.5 s, or when the target has moved more than ~1.5 m from where the current path ends, or when the path becomes invalid. Stagger the timers per eel so they don't all re-path on the same frame.
2. **Hysteresis on path choice.** When a new path is computed, only switch if it's meaningfully shorter than the remaining length of the current one (e.g. 15% shorter or 1 m shorter). Otherwise keep the current path.
3. **Commit to a side.** For swimming enemies you can bias the choice: remember the side (sign of the cross product between the direction to target and the direction to the first corner) and penalise switching sides for a second.
4. **Target stickiness.** "Nearest player" also flips when two players are about the same distance away. Keep the current target unless another is, say, 25% closer, or use a threat score that includes who last damaged the eel.

Since eels swim, also check that the NavMesh agent's `autoBraking` is off for them: braking at each corner makes the circling look even worse."""),
    U("re-path 0.4s + hysteresis fixed it. the target stickiness was a nice bonus, playtesters complained eels 'forget' you"),
    A("""Glad it helped. If you want to take it further later: a small "last seen" memory per eel (where it last saw each player) makes them feel smarter when players break line of sight, for very little code."""),
    U("ooh, that would make the dark rooms scarier. adding it to the backlog"),
)

SESSIONS.add(
    "vc-01", "2024-11-05 10:05",
    U("""We're thinking about leaving Perforce. Quick note on why: Helix Core is free up to 5 users and we're 11 people + 2 contractors, and the quote for the rest was more than our whole tools budget. We'd go to Git with LFS on GitHub, we picked GitHub because the artists already use GitHub Desktop for their personal stuff and we get LFS storage packs cheaper than a second Perforce server. Worried about: binary merges, locking, repo size. Current depot is about 38 GB at head.

```
$ p4 sizes -s //tidebreak/main/...
//tidebreak/main/... 61240 files 40813223936 bytes
```"""),
    A("""That's a reasonable move for a team your size, and your three worries are the right ones. Let me go through them.

**Binary merges**
They're not possible in Git either, which is why locking matters. Unity's YAML (scenes, prefabs) can be merged with Unity's **Smart Merge** (`UnityYAMLMerge`); set it up as the merge tool in `.gitconfig` for everyone. It works well for prefabs, less well for big scenes.

**Locking**
Git LFS supports file locking (`git lfs lock`). Mark lockable types in `.gitattributes`:

```
*.unity   merge=unityyamlmerge eol=lf lockable
*.prefab  merge=unityyamlmerge eol=lf lockable
*.psd     filter=lfs diff=lfs merge=lfs -text lockable
*.fbx     filter=lfs diff=lfs merge=lfs -text lockable
*.png     filter=lfs diff=lfs merge=lfs -text
*.wav     filter=lfs diff=lfs merge=lfs -text
```

`lockable` makes these files read-only until someone locks them, which is the closest thing to Perforce's exclusive checkout. GitHub Desktop shows locks poorly, so artists might want the **Unity plugin for Git locks** or a small "lock this asset" menu item in the editor.

**Repo size**
~38 GB at head (your `p4 sizes` says 40.8 GB in bytes) is fine for LFS, but:
- Don't migrate history. Start the Git repo from the current head and keep Perforce read-only for archaeology.
- LFS bandwidth is billed on GitHub: a fresh clone of 38 GB by 13 people plus CI is ~500 GB of transfer. Set up CI with a persistent workspace so it doesn't re-clone.
- Make sure `Library/`, `Temp/`, `Logs/`, `UserSettings/` and build outputs are in `.gitignore` from the first commit.

I'd plan the cut-over for a quiet week, with a freeze day: submit everything in Perforce, import head into Git, and have everyone do a fresh clone."""),
    U("we'll do it over christmas when half the team is off"),
    A("Christmas is a good window. Do a dry run of the import a week before on a copy, so the real cut-over is just repeating known steps."),
    U("what about the artists' 200GB art-source depot, psds etc"),
    A("""I'd keep that out of the game repo entirely. Options:

- **A separate Git LFS repo for source art**, cloned only by artists. Same locking setup.
- **Keep Perforce for art source only**, within the 5-user free tier if only the artists need it. Many studios do exactly this: Git for the game, Perforce or a file server for source art.
- **A cloud drive** with version history (e.g. Google Drive/Dropbox) if the artists don't need locking and merges.

If your art team is 5 or fewer, the "Perforce for art source only" option costs nothing and changes nothing for them."""),
    U("we have 3 artists, so perforce for source art stays. game repo goes to git. nice, that solves the politics too"),
)

SESSIONS.add(
    "playtest-01", "2024-11-12 18:10",
    U("""first external playtest done! 14 people from our Discord played 90 min sessions in groups. I exported the feedback form, can you cluster it? sample:

```
id,group,fun_1to5,liked,disliked
1,A,4,"harpoon feels great","couldn't tell which loot was better"
2,A,5,"co-op revives are tense","boss too spongy"
3,A,3,"art","lost my friends in the dark rooms"
4,B,4,"extraction timer panic","inventory UI is confusing"
5,B,2,"music","motion sickness in the currents"
6,B,4,"the eels!","loot comparison is hard"
7,C,5,"revive drama","boss fight long"
...
```"""),
    A("""Nice, a first external playtest is a big milestone. From the sample (I'll extrapolate the categories; paste all 14 if you want counts), the feedback falls into these clusters:

**Loved**
- **Combat feel**: the harpoon, the eels.
- **Co-op tension**: revives, the extraction timer.
- **Presentation**: art, music.

**Problems**
1. **Loot readability** (ids 1, 6, and the inventory UI in 4): players can't compare items. This is the most common complaint in the sample.
2. **Boss pacing** (2, 7): "spongy", "long". Usually means too much HP relative to the damage players have by then, or too few phase changes.
3. **Navigation and visibility** (3): losing teammates in dark rooms. Player outlines or a ping system help a lot in co-op.
4. **Comfort** (5): motion sickness from currents. Worth an option to reduce camera sway.

The average fun score in the sample is 3.9/5, which is a good place for a first test. If you paste all rows I'll give you counts per cluster and a split by group."""),
    U("that's enough for the retro, thanks. loot comparison is going straight to the top of the board"),
    A("Good call. Loot readability problems get worse as the item pool grows, so fixing it now is cheaper than later."),
    U("one thing: 2 of the 14 said the tutorial text is too small on the deck. is there a rule of thumb?"),
    A("""Valve's guideline for Steam Deck Verified is that the smallest on-screen text should be at least **9 pixels tall at 1280×800**, and in practice 12 px or more is comfortable. Check your tutorial font at the Deck's resolution, and consider a UI scale option; Deck players often play at arm's length or on the sofa."""),
    U("ours is 8px lol. bumping to 12"),
)

SESSIONS.add(
    "net-02", "2024-11-19 16:00",
    U("""thinking of replacing NGO. the harpoon fix helped but we'll need proper client-side prediction for the dash and the grapple, and NGO doesn't do it. candidates: Fish-Networking, Mirror, Photon Fusion. we can't pay per-CCU so Fusion is probably out. opinions?"""),
    A("""Given your constraints (no per-CCU fees, co-op of up to 4, Steam as the platform, prediction needed for movement abilities), here's how I'd compare them:

**Fish-Networking**
- Free and open source, no CCU fees.
- Has **client-side prediction and reconciliation built in** (the v4 prediction system, with `[Replicate]` and `[Reconcile]` methods), plus lag compensation.
- Works with Steam via the FishySteamworks transport (Steam relay, no port forwarding, which matters for co-op hosted by players).
- Migration from NGO is real work: different attributes, different spawning, SyncVars instead of NetworkVariables. Budget 2–4 weeks for a game your size.

**Mirror**
- Free, mature, big community, easy to learn.
- No built-in prediction: you'd be writing the dash/grapple prediction yourself, which is the thing you're trying to avoid.

**Photon Fusion**
- Excellent prediction and tick-accurate simulation.
- CCU-based pricing through Photon Cloud, which you've ruled out.

**Staying on NGO**
- You'd write prediction yourself. It's doable for two abilities, but it tends to spread.

For your case I'd pick Fish-Networking. Before committing, I'd prototype the dash with its prediction in a throwaway scene (a day or two) and test it with 150 ms latency via the transport's latency simulator."""),
    U("makes sense. I'll prototype the dash this week and pitch it to Callum"),
    A("""For the prototype, two things worth testing beyond the feel: (1) what a misprediction looks like when the dash hits a wall on the server but not on the client, and (2) CPU cost of reconciliation on the Deck with 4 players dashing at once. Those are the two places prediction systems usually disappoint."""),
    U("good, I'll measure reconcile time in the profiler on the deck"),
    A("Sounds good. Use the Deck on battery for that measurement, as before, so the number is what players will see."),
    U("""prototype update: dash with prediction feels great at 150ms. reconcile cost on deck with 4 players = 0.6 ms/frame. mispredict into a wall shows a small snap back, acceptable. Callum says go"""),
    A("""Those are good numbers: 0.6 ms is well within budget, and a small snap on a wall mispredict is what every predicted game shows. For the migration, do it on a branch in one go rather than running NGO and FishNet side by side; two netcode stacks in one project cause more trouble than a two-week freeze on multiplayer features."""),
)

SESSIONS.add(
    "course-01", "2024-11-26 21:15",
    U("""Btw, I started an evening Blender course last Thursday, Glasgow School of Art's "3D modelling for beginners", 10 weeks on Thursday nights. Mainly so I can talk to our artists better and make my own greybox props. Question: I want a script that exports the selected objects each to its own FBX for Unity. Can you write one?"""),
    A("""Nice idea, and it'll help a lot for greyboxing. Here's a script for Blender 4.x that exports each selected mesh to its own FBX, with settings that import cleanly into Unity (correct axes, scale 1, no extra root rotation):

```python
import bpy
import os

EXPORT_DIR = bpy.path.abspath("//fbx_export")
os.makedirs(EXPORT_DIR, exist_ok=True)

selected = [o for o in bpy.context.selected_objects if o.type == "MESH"]
for obj in selected:
    bpy.ops.object.select_all(action="DESELECT")
    obj.select_set(True)
    bpy.context.view_layer.objects.active = obj

    # Export at the origin so the pivot in Unity is the object's own origin.
    saved_location = obj.location.copy()
    obj.location = (0.0, 0.0, 0.0)

    bpy.ops.export_scene.fbx(
        filepath=os.path.join(EXPORT_DIR, f"{obj.name}.fbx"),
        use_selection=True,
        apply_scale_options="FBX_SCALE_UNITS",
        axis_forward="-Z",
        axis_up="Y",
        bake_space_transform=True,
        object_types={"MESH"},
        mesh_smooth_type="FACE",
    )
    obj.location = saved_location
```

The important bits for Unity are `apply_scale_options="FBX_SCALE_UNITS"`, `axis_forward="-Z"`, `axis_up="Y"` and `bake_space_transform=True`: together they avoid the classic "imported at scale 100 and rotated -90 on X" problem.

Run it from the Scripting workspace with the objects selected. Files go to a `fbx_export` folder next to the .blend."""),
    U("the -90 X thing is exactly what our artist complains about. cool, thanks"),
    A("Tell them about `bake_space_transform`; it's the setting most people miss. Enjoy the course!"),
    U("what's the best way to learn blender shortcuts, the course goes fast"),
    A("""A few things that help:

- **Learn the ten that matter first**: G/R/S (grab, rotate, scale) plus X/Y/Z to constrain, Tab (edit mode), E (extrude), I (inset), Ctrl+R (loop cut), K (knife), Shift+A (add), and Ctrl+A (apply transforms).
- Turn on **Screencast Keys** (an add-on) so you see what you pressed; also handy when you ask the teacher why something happened.
- Print the official shortcut sheet and tape it next to your screen for a couple of weeks.
- **F3** searches every operator by name, so you can always find something you forgot the key for."""),
    U("F3 is a lifesaver, thanks"),
)
SESSIONS.add(
    "team-02", "2024-12-03 09:20",
    U("""Update: Callum told us yesterday that the studio hired a technical director, Priya Raman. She was a lead engine programmer at a big studio in Dundee for eight years. She starts Monday the 9th and I'll report to her from then on instead of Callum, who wants to focus on design and the publisher hunt. I'm weirdly nervous. What should I prepare for a first 1:1 with a new manager?"""),
    A("""That's a normal feeling, and it's also a good sign for the studio: a technical director usually means someone whose job is to unblock you. Here's what I'd prepare for the first 1:1:

**About you**
- A two-minute summary of what you own: netcode, enemy AI, the save system, Deck performance (from our chats, that's your current plate).
- What you're proud of recently (the harpoon desync fix, the spawner perf fix) and what you're stuck on (the NGO → Fish-Networking decision is a good example: she'll want to weigh in).

**About how you work**
- How you like feedback (written, in the moment, in 1:1s).
- When you do your best focus work, and your hybrid pattern (two office days a week once you move).

**Questions for her**
- What does she want to learn about the codebase first, and can you give her a tour?
- How does she want technical decisions made and recorded (e.g. short decision docs)?
- What does success look like for you in the next three months, in her view?
- How often does she want 1:1s, and what should go in them?

**Practical**
- A list of open risks for Early Access (netcode migration, Deck perf, save format change), ranked.

Keep it light: first 1:1s are mostly about building trust, not solving everything."""),
    U("good list. the risk list is a great idea, she'll probably ask for it anyway"),
    A("She probably will. Having it ready shows you think about the project, not just your tickets. Good luck on Monday."),
    U("""follow-up: first 1:1 with Priya went well. she wants decision docs for anything that changes a system's architecture, one page max, in the repo. can you give me a template?"""),
    A("""Here's a one-page template (often called an ADR, architecture decision record):

```markdown
# NNNN: Title (e.g. "Replace Netcode for GameObjects with Fish-Networking")

Status: proposed | accepted | superseded by NNNN
Date: YYYY-MM-DD
Owner: name

## Context
What problem are we solving, and what constraints matter (budget, platforms, deadlines)?

## Options considered
1. Option A: one-line summary, main pro, main con.
2. Option B: ...

## Decision
What we chose, in one or two sentences.

## Consequences
What gets easier, what gets harder, what we need to do next, and how we'd know it was a mistake.
```

Number them and never delete one; when a decision changes, write a new record that supersedes the old one. That history is what makes them useful a year later."""),
    U("first one will be the fishnet decision. 0001"),
)

SESSIONS.add(
    "audio-01", "2024-12-06 15:45",
    U("we use FMOD. sound designer says the eel screech plays 4 times when 4 players are near because each client triggers it. how do we make one-shot sounds play once per event but still be positional for everyone"),
    A("""The trick is to separate "the event happened" from "play a sound here". Right now every client detects the eel's screech locally (animation event or state change), so the host and each client each play it, and with voice stealing off you hear it stacked.

A clean pattern:

1. **Only the server decides the event happened.** When the eel enters its screech state on the server, send a single ClientRpc (or set a networked state the clients observe).
2. **Each client plays the sound once, locally, at the eel's position** via `RuntimeManager.PlayOneShot(screechEvent, eel.transform.position)`. FMOD spatialises it relative to that client's listener, so it's positional for everyone.
3. **Remove the animation event that plays audio on the client**, or guard it with `if (!IsServerDrivenAudio)`.

Also set a **max instances** limit on the FMOD event (e.g. 2, with "steal oldest") so that several eels screeching at once doesn't turn into mush."""),
    U("yep that was it, the anim event. thanks"),
    A("Animation events that play audio are a common source of this in multiplayer. Worth grepping for other `PlayOneShot` calls in animation events while you're at it."),
    U("follow up: the sound designer also wants footsteps to be quieter for the local player than for teammates. can FMOD do that per listener?"),
    A("""Yes, simply: use an FMOD **parameter** on the footstep event, e.g. `IsLocalPlayer` (0 or 1), and automate volume on it in FMOD Studio. When you start the footstep instance, set it from code: `instance.setParameterByName("IsLocalPlayer", isOwner ? 1 : 0)`. The sound designer then tunes the levels in FMOD without touching code."""),
    U("she's going to love not needing me for that"),
)

SESSIONS.add(
    "net-03", "2024-12-10 11:30",
    U("""FYI we went with Fish-Networking (4.5.2). I finished the switch yesterday on a branch, Priya signed it off on her second day. I'm getting errors on the prediction for the dash:

```
Assets/_Project/Scripts/Player/DashAbility.cs(48,10): error CS0246: The type or namespace name 'ReplicateAttribute' could not be found
Assets/_Project/Scripts/Player/DashAbility.cs(71,10): error CS0246: The type or namespace name 'ReconcileAttribute' could not be found
Assets/_Project/Scripts/Player/DashAbility.cs(49,24): error CS0246: The type or namespace name 'IReplicateData' could not be found
```

also what tick rate should we use, we had 30 on NGO"""),
    A("""Those errors are just missing namespaces: in Fish-Networking 4.x the prediction types live in `FishNet.Object.Prediction`, so add:

```csharp
using FishNet.Object.Prediction;
using FishNet.Transporting;
```

If you still see them after that, check that your player scripts' assembly definition references the `FishNet.Runtime` assembly; asmdefs don't see packages they don't reference.

**Tick rate**

With prediction, the tick rate matters more than it did on NGO, because inputs are simulated per tick and reconciliation replays ticks. For a fast co-op action game with a dash and a grapple I'd go to **50 Hz** (the `TimeManager`'s Tick Rate field). At 30 Hz a dash that lasts 0.2 s is only 6 ticks, so a single late input is very visible; at 50 Hz it's 10 ticks. For 4 players the bandwidth increase is small, and Fish-Networking's delta compression keeps it reasonable. I'd avoid going to 60+: reconciliation cost grows with the tick rate and the Deck's CPU is your bottleneck.

Also set `Physics mode` to `TimeManager` so physics steps with the network tick rather than `FixedUpdate`, otherwise predicted movement and physics drift apart."""),
    U("50 it is. and yeah it was the asmdef. Player.asmdef didn't reference FishNet.Runtime"),
    A("""One more FishNet detail that bites people after a migration: NetworkObjects placed in scenes get their ids from the scene, so if two people edit the same scene and both add networked objects, you can get duplicate ids. FishNet has a "Rebuild SceneIds" menu; run it (or make CI check) after scene merges."""),
    U("""oh that explains a weird bug from yesterday where two doors shared an id. rebuilt, fixed"""),
)

SESSIONS.add(
    "build-01", "2024-12-17 14:00",
    U("""TeamCity build for Linux fails, Windows is fine. We ship on Steam for Windows and Linux (Linux mostly for the Deck). log:

```
[14:02:11] Building Player: Linux64 IL2CPP
[14:09:48] Il2CppBuildPipeline: Running clang++ ...
[14:09:52] clang++: error: unable to execute command: Executable "ld.lld" doesn't exist!
[14:09:52] clang++: error: linker command failed with exit code 1 (use -v to see invocation)
[14:09:52] UnityEditor.Build.BuildFailedException: Il2CppBuildPipeline failed with exit code 1
[14:09:52] Build Finished, Result: Failure.
[14:09:53] Process exited with code 1
```

the agent is a Windows machine building both"""),
    A("""Let me check what that failure means. IL2CPP builds for Linux from a Windows agent are cross-compiled, and Unity uses a **Linux sysroot and toolchain package** for that. The error says `ld.lld` (the LLVM linker shipped in that toolchain) isn't there, so the cross-compile toolchain is missing or not found on the agent.

Fixes:

1. **Install the toolchain packages in the project**: `com.unity.toolchain.win-x86_64-linux-x86_64` and `com.unity.sysroot.linux-x86_64` through the Package Manager, and commit the `Packages/manifest.json` change. In 2022.3 these are what Linux IL2CPP cross-builds from Windows need.
2. **Check the agent's Unity install** has "Linux Build Support (IL2CPP)", not only "(Mono)". It's a separate module in Unity Hub.
3. If both are there, the toolchain unpacks into the user's cache (`%LOCALAPPDATA%\\unity3d\\cache\\sysroots`). TeamCity agents running as the SYSTEM user have a different profile, so the first build may fail to unpack; running the agent service under a normal build user avoids that.

Windows builds are unaffected because they use the MSVC toolchain on the agent itself."""),
    U("it was 1, the toolchain packages weren't in the manifest. someone removed them in a cleanup 🙃"),
    A("Classic. Worth adding a comment in the PR template or a check in CI that fails fast if `com.unity.toolchain.win-x86_64-linux-x86_64` disappears from `manifest.json`; a one-line grep step before the build would have saved you 8 minutes of IL2CPP."),
    U("how long should an IL2CPP linux build take? ours is 34 min for both platforms"),
    A("""For a project your size on one agent, 30–40 minutes for both IL2CPP builds is normal. The usual speed-ups, in order of payoff:

1. Keep the `Library` folder between builds (incremental import) and IL2CPP's cache (`Library/Bee`).
2. Build the two platforms on two agents in parallel.
3. Use "Faster (smaller) builds" for the IL2CPP code generation setting on internal builds, "Faster runtime" only for releases.
4. More cores on the agent: IL2CPP's C++ compile step scales well."""),
    U("library is wiped every build right now 🙃 fixing that first"),
)

SESSIONS.add(
    "life-02", "2024-12-23 19:00",
    U("""Home for Christmas at my parents' in Inverness. Quick note: my sister Marta is getting married in Porto on May 24 (her fiancé is Portuguese) and I'm doing a reading. I want to write something short that isn't cheesy. She's a vet, they met hiking the West Highland Way. Can you help me draft 150 words?"""),
    A("""Here's a draft, about 150 words. It leans on the hiking story rather than on big statements:

---

When Marta told me she'd met someone on the West Highland Way, my first question was whether he'd kept up. She said he had. Then she said something I've thought about since: that the best part wasn't the views, it was that they kept choosing the same pace.

Ninety-six miles is a long way to walk next to a stranger. It's longer to walk next to someone for a life. There will be days of rain on Rannoch Moor and days when the path is easy, and days when one of you has to carry more.

Marta, you've spent your life looking after creatures who can't say what's wrong. I hope you've found someone who'll always tell you. And I hope you both keep choosing the same pace.

---

Want it warmer, funnier, or with a line in Portuguese for his family?"""),
    U("a line in portuguese at the end would be lovely"),
    A("""You could end with: *"Que continuem a escolher o mesmo passo."* ("May you keep choosing the same pace.") Have someone from his family check the phrasing, since small choices like this vary between speakers."""),
    U("merry christmas btw"),
    A("Merry Christmas! Enjoy Inverness, and good luck with the migration when you're back."),
)

SESSIONS.add(
    "vc-02", "2025-01-07 10:40",
    U("""we did the perforce -> git lfs migration over christmas like planned. mostly good! current state:

```
$ git lfs ls-files | wc -l
18422
$ git count-objects -vH
count: 0
size: 0 bytes
in-pack: 43119
packs: 1
size-pack: 612.40 MiB
prune-packable: 0
garbage: 0
size-garbage: 0 bytes
$ du -sh .git/lfs
37G	.git/lfs
```

problem: two people edited Flooded_Archive.unity at the same time today and one lost 2 hours of work. I thought we set up locking?"""),
    A("""The numbers look healthy: 612 MiB of Git objects and 37 GB in LFS is what you'd expect for a Unity project that put its binaries in LFS.

On the lost work: with Git LFS, `lockable` in `.gitattributes` only makes files **read-only on checkout**; it doesn't stop anyone from editing them. Here's what usually goes wrong:

1. **Unity ignores the read-only flag.** Unity happily saves over read-only scene files in some cases, or people clear the flag when Unity complains. Then nobody ever runs `git lfs lock`.
2. **The lock is never checked on push.** GitHub rejects pushes of files locked by *someone else*, but only if the other person actually took the lock.
3. **Text files and lockable.** If `.unity` files are stored as text (not LFS), check that `lockable` is on their line; your attribute order matters when several patterns match.

What I'd do:

- Add an editor script that, on opening a scene or prefab, checks `git lfs locks` (cache it every 30 s) and shows a big warning bar if someone else holds the lock, and a "Lock" button if no one does. There are open-source ones you can adapt.
- Agree a rule: **big shared scenes are locked before editing**, and split the biggest scenes into additive sub-scenes (lighting, geometry, gameplay) so two people rarely need the same file.
- For the lost two hours: if the second person hasn't pulled yet, their version is still in their local commit, so nothing is lost unless they discarded it. Merging scene YAML with UnityYAMLMerge may recover most of both.

My recommendation is to lock `.unity` and `.prefab` files before editing, always, and make the editor enforce it, because GitHub Desktop won't."""),
    U("yeah it was 1, people clicked 'make writable'. we'll do the editor bar + sub-scenes"),
    A("Sounds good. Sub-scenes also make scene loading more flexible later, so the split pays off twice."),
    U("how do we do the sub-scene split without breaking references between objects in the scenes"),
    A("""Cross-scene references are the tricky part, since Unity can't serialise a direct reference from an object in one scene to an object in another. Patterns that work:

1. **Keep references inside one sub-scene.** Split along lines where objects mostly reference each other: geometry + its colliders; lights + reflection probes; gameplay (spawners, triggers, doors) + the things they control.
2. **Use IDs for the few cross-scene links.** Give targets a `GuidComponent` (Unity's open-source one) and store the GUID; resolve it at runtime after all sub-scenes load.
3. **Load order.** Load the sub-scenes additively with a bootstrap that waits for all of them before enabling gameplay.

Do one room first (the Flooded Archive, since it caused the conflict), and check the lighting bake still works across the split; baked lighting in multi-scene setups needs all scenes open when you bake."""),
    U("doing the archive this week as the pilot"),
)

SESSIONS.add(
    "life-03", "2025-01-14 08:05",
    U("""We moved to Edinburgh! Moved on the 4th, we're in a flat in Leith near the Shore, pets allowed in writing as you told me to insist. I'm on the train to Glasgow now (office days are Tue + Thu). I want a setup for coding on the train: ~50 min each way, wifi is flaky. Laptop is a ThinkPad with an RTX 4060, 32 GB. Unity on battery is terrible. Ideas?"""),
    A("""Congrats on the move, Leith is lovely. Fifty minutes twice a day is a good chunk of focused time if the setup doesn't fight you. Here's what I'd do:

**Power and performance**
- Check if your carriage has sockets; many of the Edinburgh–Glasgow trains do at the table seats. Plugged in, the 4060 is fine.
- On battery, don't run the Unity editor for gameplay. Use the time for **code only**: Rider (or VS Code with the C# Dev Kit) opened on the solution, no editor. Rider on battery with power save mode on is fine for 50 minutes.
- Set Windows to "Best power efficiency" and disable the dGPU for Rider (NVIDIA Control Panel → per-app "Integrated graphics").

**Offline-friendly work**
- Pull before you leave, work offline, push when you arrive. With Git this is natural now that you're off Perforce.
- Keep **unit-testable** code paths: the save migration, loot generation, run seeds. EditMode tests run from the command line (`Unity -batchmode -runTests -testPlatform EditMode`) but it's still Unity; pure C# libraries with their own test project (xUnit/NUnit outside Unity) run fast on battery.
- Download docs for offline use: Fish-Networking docs, the Unity scripting reference (it's in the Hub install as a module).

**Task picking**
- Save reviews, design docs and writing for the train; save profiling and playtesting for office days.

**Ergonomics**
- A small laptop stand doesn't fit on a train table, but a lightweight folding one does at the seats with full tables."""),
    U("pure C# test project for loot gen is a good call, that code has zero Unity deps"),
    A("Yes, pure logic like loot generation is the easiest thing to test outside Unity, and the fastest to iterate on with a flaky connection."),
    U("sockets: yes on the 7:45 train, no on the way back half the time. so rider on battery on the way home"),
    A("""That works. Rider's **Power Save Mode** (File menu) turns off background analysis; you keep navigation and editing, and battery lasts much longer. Turn it on when you board on the way home."""),
    U("didn't know that existed, nice"),
)

SESSIONS.add(
    "shader-01", "2025-01-24 16:30",
    U("""writing a water surface shader in URP shader graph for the flooded rooms. the artists want the surface to show where players are (ripples around them). we have up to 4 players + eels. how would you feed positions into the shader without a render texture?"""),
    A("""For a handful of moving sources, a small global array is simpler and cheaper than a render texture:

1. **A global vector array.** Every frame, write the positions (and a radius/strength in `w`) of the ripple sources into a `Vector4[]` and push it once: `Shader.SetGlobalVectorArray("_RippleSources", sources)` plus `Shader.SetGlobalInt("_RippleCount", count)`. Size the array for the worst case (e.g. 16: 4 players + 12 eels) and always pass the full length; Unity fixes an array's size the first time it's set.
2. **A Custom Function node** in Shader Graph that loops over `_RippleCount` sources and sums a ripple term for each, using distance from the fragment's world position:

```hlsl
float4 _RippleSources[16];
int _RippleCount;

void Ripples_float(float3 worldPos, float time, out float height)
{
    height = 0;
    for (int i = 0; i < _RippleCount; i++)
    {
        float d = distance(worldPos.xz, _RippleSources[i].xz);
        float falloff = saturate(1 - d / _RippleSources[i].w);
        height += sin(d * 12.0 - time * 6.0) * falloff * falloff;
    }
}
```

3. Use `height` to perturb the normal (via a height-to-normal node) rather than displacing vertices; it's cheaper and looks right on flat water.

Sixteen iterations per pixel is cheap on the Deck for a surface that covers part of the screen. If you later want wakes that persist after the player leaves, that's when a render texture (a ripple simulation) becomes worth it."""),
    U("perfect, artists love it. rendering guy says keep the loop count <=16 on deck"),
    A("That's a sensible limit. If you ever need more sources, cull to the 16 nearest the camera each frame on the CPU."),
    U("can the same ripple data drive footstep splashes VFX? or separate system"),
    A("""Use the same source list, but keep the systems separate. The ripple array is "where are things in the water right now"; a splash is an *event* ("a foot hit the water now"). Have the footstep event spawn a pooled splash VFX at the contact point, and if you want the splash to also leave a ripple, add a short-lived entry (with a decaying strength in `w`) to the same ripple source list."""),
    U("decaying w entry, nice. ok"),
)

SESSIONS.add(
    "jam-01", "2025-01-28 20:40",
    U("""I did Global Game Jam last weekend (Jan 24-26) at Abertay in Dundee with three friends from uni. The theme was "Bubble". We made "Kelp Courier", a little game where you deliver air bubbles to divers through a kelp forest, in Godot 4.3 since none of us wanted to touch Unity on a weekend. Can you help me write a short post-mortem for our itch page? what went well: scope, art style; badly: we lost 5 hours to a physics bug with the bubbles sticking to kelp."""),
    A("""Here's a short post-mortem you can paste on itch.io:

---

**Kelp Courier: post-mortem (Global Game Jam 2025, Abertay)**

Four of us, 48 hours, theme "Bubble". We made a game about delivering air to divers lost in a kelp forest, in Godot 4.3.

**What went well**
- **Scope.** We picked one verb (push a bubble) and one hazard (kelp that grabs) on Friday night and refused to add anything until Sunday morning. Everything in the build is finished, nothing is half-done.
- **Art style.** Flat colours, a three-colour palette per depth layer, and no outlines. It was fast to produce and it reads well even when the screen gets busy.

**What went badly**
- **Physics.** Our bubbles kept sticking to the kelp. We lost about five hours on Saturday to collision layers, margins and the order we applied buoyancy. The fix was embarrassingly simple in the end (the kelp's collision shape was one-way-enabled), but we should have timeboxed it and replaced physics with a simple custom mover after an hour.

**What we'd do next time**
- Timebox any bug to one hour before changing approach.
- Playtest with someone outside the team by Saturday evening.

Thanks to Abertay for hosting and to everyone who played it at the showcase!

---

Fill in the actual fix if it was something else; I guessed at the one-way collision."""),
    U("the fix was actually the bubble's rigidbody having friction 1. I'll edit that. thanks!"),
    A("Friction 1 on a rigidbody in water would do exactly that. Good luck with the page!"),
    U("also should we put it on itch as free or pay what you want"),
    A("""For a jam game, **free with an optional donation** ("name your own price" with a $0 minimum) is the norm and gets far more downloads. Paid jam games get very few players. If you want the game to help your portfolios, downloads and comments matter more than the few dollars."""),
    U("free + donations. done"),
)

SESSIONS.add(
    "demo-01", "2025-01-21 13:15",
    U("""We're in Steam Next Fest, Feb 24 - Mar 3. Need to cut a demo. Plan is: first biome only (the Flooded Archive), 3 dives, tutorial, solo or co-op, boss at the end. Our producer wants a timer to cap playtime but I think that's hostile. We'll put the demo on a separate Steam app (demo app id). How should I structure the demo build in the codebase?"""),
    A("""Good plan on scope; one biome plus the boss is a strong demo. For structure, the goal is that the demo is the same game with things removed, not a fork:

**1. A build define, not a branch**
- Add a scripting define `TIDEBREAK_DEMO` set only by the demo build profile. Gate content in a few central places (run generation, biome selection, unlocks) with it.
- Avoid `#if` sprinkled everywhere: put a `DemoRules` ScriptableObject in one place that answers "is biome X available", "max dives", "which unlocks exist".

**2. Content stripping**
- Put biome 2+ content in separate Addressables groups and exclude them from the demo's build profile, so the demo doesn't ship your unreleased art (dataminers will find it otherwise).

**3. Saves**
- Separate save folder for the demo. Decide now whether demo progress carries over to the full game; it's a nice touch, but then the save format needs to be forward compatible (you're changing formats, so keep it simple: carry over only cosmetic unlocks).

**4. Steam**
- The demo app has its own app id, so `steam_appid.txt` and your Steamworks init need to read the id from the build profile.
- Use the same depot layout so your upload scripts work for both.

**5. On the timer**
On the playtime cap: I agree with you. Capping by **content** (3 dives + boss) already limits playtime. A hard timer during Next Fest tends to produce negative reviews in the demo's comments. If the producer's worry is people "finishing the game" in the demo, a content cap answers it better."""),
    U("ok the DemoRules SO is exactly what I needed. producer agreed on no timer"),
    A("Great. Keep `DemoRules` as the only place the demo's limits live, and the demo build stays easy to reason about."),
    U("the demo app id thing, can we have one build that reads the app id at runtime or do we need 2 builds?"),
    A("""Two builds is simpler and safer. The app id decides which Steam app the game talks to (achievements, stats, cloud), and the demo's content is different anyway (the `TIDEBREAK_DEMO` define and stripped Addressables). Make the app id part of the build profile: a `SteamSettings` ScriptableObject per profile that both `SteamAPI.Init` (through `steam_appid.txt` written at build time for dev) and your upload scripts read."""),
    U("ok two build profiles, one SteamSettings each"),
)

SESSIONS.add(
    "playtest-02", "2025-01-28 17:30",
    U("""second playtest wrapped, bigger this time: twenty-two testers, some from a uni games society. Survey results:

```
question                          mean   n
fun (1-5)                         4.3   22
would wishlist (%)                86    22
loot comparison clear (1-5)       4.0   22
boss length ok (%)                64    22
got lost in dark rooms (%)        18    22
motion sickness (%)                9    22
median session length (min)       74    22
```

compare with November? loot was the big complaint then"""),
    A("""Big improvements across the board. Compared with the first playtest in November:

- **Fun** went from ~3.9 to **4.3**. That's a meaningful jump for the same core loop.
- **Loot comparison**, the top complaint in November, now scores **4.0/5**. The comparison UI worked.
- **Boss length**: 64% say it's OK, so a third still find it long. I'd look at the phase where players have no new information (often the second phase repeating the first).
- **Getting lost** is down to 18%, and **motion sickness** 9%. Both are now minority issues, but 9% is 2 people: make sure the camera-sway option is discoverable in the settings menu.
- **86% would wishlist** is a strong signal going into Next Fest.

The median session of 74 minutes also tells you the demo length is right: 3 dives + boss should land around 40–60 minutes for new players."""),
    U("yeah I'll look at boss phase 2. thanks"),
    A("Sounds good. If you share the telemetry for phase 2 (time spent, damage dealt per minute), I can help pin down which part drags."),
    U("""for the boss, telemetry says phase 2 lasts 4m10s on average vs 1m30 for phase 1. players do ~40% of phase 2 damage in the last minute when the weak points open. thoughts?"""),
    A("""That points straight at the problem: for the first ~3 minutes of phase 2, players can't do much damage, so it's waiting, not fighting. Options:

- Open the weak points earlier or more often (e.g. every 45 s instead of once near the end).
- Cut phase 2's HP by ~30% and add a mechanic to the end instead.
- Give players a reason to act during the closed phase: adds that drop ammo, or hazards to dodge that create openings.

I'd start with opening the weak points more often: it's a tuning change, not new content, and you can test it in the next internal playtest."""),
    U("tuning change it is, designer agrees"),
)
SESSIONS.add(
    "perf-02", "2025-02-04 10:50",
    U("""deck is now at 30 fps most of the time after the pooling + spawner fixes. but there are hitches the first time things appear on screen, like the first eel or the first explosion. player log:

```
[ShaderCompile] Compiling shader "Tidebreak/WaterSurface" pass "ForwardLit" (fp) keywords _MAIN_LIGHT_SHADOWS_CASCADE _ADDITIONAL_LIGHTS
[ShaderCompile] took 212.44 ms
[ShaderCompile] Compiling shader "Universal Render Pipeline/Particles/Unlit" pass "ForwardLit" keywords _SOFTPARTICLES_ON
[ShaderCompile] took 97.10 ms
[ShaderCompile] Compiling shader "Tidebreak/EelSkin" pass "ForwardLit" keywords _ADDITIONAL_LIGHTS _EMISSION
[ShaderCompile] took 143.87 ms
```"""),
    A("""Those are shader variants being compiled (well, loaded and compiled by the driver) the first time they're used: 212 ms, 97 ms, 144 ms, each a visible hitch. The standard fix is to warm them up before gameplay:

1. **Record the variants.** In a Development build with `Log Shader Compilation` enabled (Graphics settings), play through the demo route on the Deck. Collect the variants into a **ShaderVariantCollection** (Graphics settings → "Save to asset" after a play session in the editor gets you most; the player log gives the rest).
2. **Warm them up during the loading screen.** Call `shaderVariantCollection.WarmUp()` (or `WarmUpProgressively(n)` in Unity 6) while the dive is loading. Split it over several frames if the loading screen animates.
3. **Prewarm particles and pools too.** Spawn one of each VFX offscreen for a frame during loading; that also catches the particle shader and mesh upload.
4. **Strip variants you don't use.** `_ADDITIONAL_LIGHTS` with shadows cascades on the Deck multiplies variants; disable keyword combinations you never ship in the URP asset so the collection stays small.

On Linux/Proton, Steam's **shader pre-caching** also helps players who have it enabled, but you can't rely on it, so the warm-up in your loading screen is the real fix."""),
    U("""ok did the collection + warmup in the loading screen. first-eel hitch is gone. the collection has 184 variants, warmup takes 1.9 s on deck, loading screen is 4 s anyway so fine"""),
    A("""Good numbers: 1.9 s of a 4 s loading screen is fine. Keep an eye on the variant count as content grows: when you add biome 2, build a separate collection per biome and warm up only the one you're loading, or the warm-up time grows with the whole game."""),
    U("per biome collection, noted"),
)

SESSIONS.add(
    "team-03", "2025-02-11 09:45",
    U("""news: Priya moved Early Access from April 24 to June 12. reasons: (1) the Next Fest demo will give us feedback we won't have time to act on before April, (2) we're talking to a publisher and they'd want input on the launch. honestly relieved. she asked me to draft a revised milestone plan for the netcode and perf work, here's what's left:

- grapple prediction (dash is done)
- host migration (nice to have)
- 40 fps on deck? (Priya wants to try after next fest)
- save format v8 (messagepack)
- cloud save conflicts
- late join

can you turn it into a plan to June 12 with milestones"""),
    A("""Here's a plan from now to June 12 (about 17 weeks), with Next Fest in the middle as the fixed point:

**Milestone 1: Next Fest demo (Feb 11 → Feb 24)**
- Only demo-critical work: bug fixes on the demo route, crash reporting, Deck stability at 30 fps.
- No new systems.

**Milestone 2: Post-fest fixes (Feb 24 → Mar 21)**
- Act on demo feedback (expect crashes, onboarding, balance).
- **Grapple prediction**, building on the dash's `[Replicate]/[Reconcile]` pattern. Estimate 2 weeks.
- **Save format v8 (MessagePack)** with the v7 → v8 migration and background writes.

**Milestone 3: Systems complete (Mar 24 → Apr 25)**
- **Late join**: joining a run in progress; needs a state snapshot of the run. Estimate 2–3 weeks; it's the riskiest item.
- **Cloud save conflicts**: detect conflicts with Steam Cloud and show a "keep local / keep cloud" prompt.
- **40 fps on Deck spike**: one week of profiling to decide if it's achievable; make the call by end of April.

**Milestone 4: Content lock and polish (Apr 28 → Jun 6)**
- Performance work for the 40 fps target if it's a go.
- Bug fixing only after May 23.

**Launch week (Jun 9 → Jun 12)**

**Cut list if things slip:** host migration first (it's a nice-to-have and notoriously hard), then 40 fps (ship at 30, patch later).

I'd put host migration explicitly on the "after EA" list now, so nobody half-starts it."""),
    U("sent it to Priya, she moved host migration to post-EA as you said"),
    A("Good. Having it explicitly parked means nobody feels they have to squeeze it in before June."),
    U("also should we tell the discord about the date change now or after next fest"),
    A("""Tell them now, briefly, and with the reason. Communities take delays well when they hear early and hear why ("we want time to act on your Next Fest feedback"); they take them badly when they find out from a changed store page. Make the Next Fest demo the headline of the post so the delay isn't the only news."""),
    U("ok callum is writing it, I'll send him that framing"),
)

SESSIONS.add(
    "health-01", "2025-02-14 20:30",
    U("""been getting lower back pain for a few weeks, physio says it's from sitting 10 hours a day and told me to alternate sitting and standing. I ordered a FlexiSpot E7 standing desk (£389) for the home office. what's a sane routine for alternating + should I set reminders?"""),
    A("""I'm not a clinician, so follow your physio's plan first, but here's a routine many people with desk-related back pain find workable:

**Alternating**
- Start gently: **30–45 minutes sitting, then 10–15 minutes standing**, and increase the standing share over two or three weeks. Standing all day isn't the goal; changing position is.
- Move during the switch: walk to get water, do the stretches your physio gave you.

**Desk setup**
- Standing height: elbows at about 90° with shoulders relaxed, screen top at eye level. Save sitting and standing heights as presets on the E7's keypad so switching takes two seconds.
- An anti-fatigue mat makes standing much more comfortable.

**Reminders**
- Yes, at least for the first month. A simple timer works, or tie it to your natural breaks: stand for every meeting and every code review.
- On your train days you'll be sitting for 100 minutes of commuting, so walk to the station and take the stand-up breaks seriously on those days.

If the pain changes (radiates into a leg, numbness), go back to your physio or GP rather than adjusting the routine."""),
    U("stand for every code review is a fun rule, stealing that"),
    A("It also gets you moving at exactly the moment you'd otherwise sit for a long read, so it's a good habit."),
    U("update after a week: back is noticeably better. standing for code reviews turned into standing for most of the afternoon"),
    A("""Good to hear. Keep alternating even when it feels fine: standing for hours has its own problems (feet, lower back again). The aim is to change position often, so a few short stands in the afternoon beat one long one."""),
)

SESSIONS.add(
    "net-04", "2025-02-18 16:20",
    U("""fixed a nasty desync in the boss fight this morning!! the Archivist boss picks attack patterns with UnityEngine.Random on host AND clients, and clients predicted the wrong pattern sometimes. stack from the client when it went wrong:

```
DesyncException: Boss pattern mismatch at tick 40211: client=SweepLeft server=InkBurst
  at Tidebreak.Bosses.Archivist.OnPatternReconcile (Tidebreak.Bosses.PatternState state) [0x0004c] in Archivist.cs:212
  at FishNet.Object.Prediction.Reconciler`1[T].Reconcile (T data) [0x00021]
  at Tidebreak.Bosses.Archivist.Reconcile_Server (Tidebreak.Bosses.PatternState state, FishNet.Transporting.Channel channel) [0x00010]
```

the fix was to sync the RNG seed at fight start and use a System.Random per boss instead of the global one. does that sound right, or should the server just send the pattern?"""),
    A("""Your fix is right in principle, and it's a common cause of boss desyncs: `UnityEngine.Random` is global state, so anything else that calls it (VFX, loot, a particle system) on one machine but not the other shifts the sequence and the machines diverge.

Seeding a per-boss `System.Random` at fight start works as long as:

1. **The number of draws is identical on every machine.** If the client ever draws during a mispredicted tick and then rolls back, its RNG has advanced but the server's hasn't. With prediction and reconciliation, that will happen. You'd need to save and restore the RNG state as part of the reconcile data.
2. **Nothing else uses that instance.** Keep it private to the pattern selection.

Because of (1), for bosses I'd actually **let the server choose the pattern and send it** (a byte in the reconcile state or an RPC at pattern start). Boss patterns change every few seconds, so the bandwidth is nothing, and clients simply play what the server chose. Prediction buys you little here: players don't control the boss, so there's no input latency to hide. Keep client-side prediction for the player's own abilities, where it matters.

So: keep your seeded RNG as the fallback for cosmetic randomness, but make pattern selection server-authoritative."""),
    U("hmm yeah the rollback thing would bite us. switched to server-sent pattern, it's simpler anyway. good timing, next fest is in a week"),
    A("Good timing indeed. A server-sent pattern also makes the boss easier to debug: the server's log is the truth."),
    U("should I write a test for this"),
    A("""Yes, and it's a good one to automate: a PlayMode test that runs a host and a client in the same process (FishNet supports multiple local connections in tests) for the full boss fight with scripted inputs, and asserts that every pattern the client plays equals the server's. Run it with a simulated latency and a forced misprediction. It would have caught this bug and will catch the next one that touches the boss."""),
    U("adding it after next fest, put it in the backlog"),
)

SESSIONS.add(
    "demo-02", "2025-02-25 22:10",
    U("""next fest started yesterday and the demo is live!!! numbers from steamworks after ~30h:

{
  "app": "Tidebreak Demo",
  "window": "2025-02-24T18:00Z/2025-02-26T00:00Z",
  "demo_players": 2114,
  "demo_median_playtime_min": 41,
  "wishlist_adds_full_game": 1873,
  "crash_reports": 37,
  "top_crash": "NullReferenceException in LootTooltip.Refresh (37 of 37)"
}

all crashes are the same one. LootTooltip.Refresh. what's the fastest safe way to hotfix during the fest"""),
    A("""Congratulations, 1,873 wishlists in the first 30 hours of Next Fest is a great start. Let me check the crash first: 37 of 37 being the same `NullReferenceException` in `LootTooltip.Refresh` is actually good news, it's one bug.

**Fastest safe hotfix**

1. **Find the null.** Most likely the tooltip refreshes after the hovered item was destroyed or picked up by another player (co-op!). A guard at the top of `Refresh` (`if (item == null || !item.isActiveAndEnabled) { Hide(); return; }`) fixes the crash without changing behaviour.
2. **Build from the exact demo commit plus that one change.** Don't ship anything else from main during the fest. Tag the demo commit if you haven't.
3. **Test the repro**: two players, one hovering an item while the other picks it up.
4. **Upload to a beta branch on the demo app first** (e.g. `hotfix`), test it on the Deck and Windows for 20 minutes, then set it live on the default branch.
5. **Post a short note** on the demo's Steam community: players at festivals appreciate seeing a fix in a day.

Crash reporting that groups by stack like this is gold; keep an eye on whether a second crash appears once this one's gone (it often hides others)."""),
    U("it was exactly the co-op pickup case. hotfix is live, 0 crashes in the last 2h"),
    A("Excellent, a same-day fix during Next Fest is exactly what you want."),
    U("also should we reply to the negative demo reviews or not"),
    A("""Reply to the ones that report a bug or a concrete problem (briefly, with what you did: "fixed in today's hotfix, thanks for the report"), and leave opinions alone ("not my kind of game"). Never argue. A developer reply on a bug report during a festival tells everyone reading that the game is maintained."""),
    U("ok I'll reply to the crash ones, the hotfix is a nice thing to point at"),
)

SESSIONS.add(
    "demo-03", "2025-03-04 11:00",
    U("""next fest is over. final numbers:

```
metric                      value
demo players (unique)       6,350
median playtime (min)       38
wishlists gained (fest)     11,900
total wishlists             19,420
follower count              3,104
crashes after hotfix        4
top feedback tag            "co-op chaos" (positive)
second feedback tag         "boss too long"
```

Priya asked me to summarise what it means for EA in a few bullets for the all-hands. help?"""),
    A("""Here's a summary for the all-hands:

- **Next Fest worked.** 6,350 people played the demo and we gained **11,900 wishlists** during the fest, taking us to **19,420 total**. That's a solid base for an Early Access launch from a studio our size.
- **The demo length is right.** The median player spent 38 minutes, about one full run of the demo's three dives plus the boss.
- **Stability is good.** After the day-one hotfix, 4 crashes in the rest of the fest.
- **Players love co-op chaos**, which is our core pitch, so the marketing message is validated.
- **The boss is too long**, again. It's now the top negative in two playtests and the fest: fixing boss phase 2 should be part of the post-fest milestone.
- **Next:** act on feedback through March, keep the June 12 date, and use these numbers in the publisher conversations.

If Priya wants one sentence: "The demo proved people want to play this with friends; now we fix the boss and finish the systems." """),
    U("lol she literally used that last sentence as the title slide"),
    A("Ha, good. It's a clear story, and that's what an all-hands needs."),
    U("what's a good wishlist to sales conversion to expect? the publisher folks keep asking"),
    A("""Figures vary a lot by genre and by how long the wishlists have been sitting, but a commonly quoted rule of thumb is that **first-week sales are often around 10–20% of wishlists at launch**, and the first-year total is often somewhere around 1–2x that. Co-op games sometimes do better because one purchase brings friends. Treat any such ratio as a range to plan with, not a forecast, and don't quote it to a publisher as your number."""),
    U("range, not forecast. got it"),
)

SESSIONS.add(
    "u6-01", "2025-03-11 14:35",
    U("""we're upgrading to Unity 6 (6000.0.41f1) from 2022.3. Priya's call: the GPU Resident Drawer and the better Deck perf, plus 2022.3 LTS support ending in 2025. upgrade on a branch, errors:

```
Assets/_Project/Scripts/Rendering/OutlineFeature.cs(33,38): error CS0619: 'ScriptableRenderPass.Execute(ScriptableRenderContext, ref RenderingData)' is obsolete: 'This rendering path is for compatibility mode only (when Render Graph is disabled). Use Render Graph API instead.'
Assets/_Project/Scripts/Rendering/OutlineFeature.cs(41,17): error CS0619: 'RenderTargetHandle' is obsolete: 'Deprecated in favor of RTHandle'
Assets/Plugins/FishNet/Runtime/Plugins/ColliderRollback/... warning CS0618: 'Physics.autoSimulation' is obsolete
```

the outline feature is our player outline (so you don't lose friends in dark rooms)"""),
    A("""These are the expected URP upgrade errors: in Unity 6, URP uses the **Render Graph** by default, and the old `Execute(ScriptableRenderContext, ref RenderingData)` path of custom render passes only runs in "compatibility mode".

You have two options:

**Quick: turn on compatibility mode**
Project Settings → Graphics → URP → Render Graph → "Compatibility Mode (Render Graph Disabled)". Your `OutlineFeature` compiles and runs as before (it's an error because CS0619 is raised only when Render Graph is on). This unblocks the upgrade today, but compatibility mode will be removed in a later version and you lose some of the performance you're upgrading for.

**Proper: port the pass to Render Graph**
- Replace `Execute` with `RecordRenderGraph(RenderGraph renderGraph, ContextContainer frameData)`.
- Get the camera color target from `frameData.Get<UniversalResourceData>().activeColorTexture`.
- Replace `RenderTargetHandle` with `TextureHandle`s created via `renderGraph.CreateTexture` (or `UniversalRenderer.CreateRenderGraphTexture`).
- Draw the outlined renderers with a `RendererListHandle` built from `RendererListDesc`, inside `AddRasterRenderPass`.

An outline pass is a well-trodden case, and URP 17 ships samples (Package Manager → URP → Samples → "Render Graph samples") you can adapt. I'd do the quick option on the branch to get everything else tested, then port the outline pass within the week.

The `Physics.autoSimulation` warning in FishNet is harmless (it's `Physics.simulationMode` now); a FishNet update will remove it."""),
    U("compat mode for now, then port. the rest of the upgrade was surprisingly painless, 2 days total"),
    A("Two days is fast for a 2022.3 → 6 upgrade. Keep the compat-mode switch on your list, since it also blocks some of the render graph's optimisations."),
    U("""port done! Outline pass is on render graph now. one q: the GPU Resident Drawer says 'disabled: BatchRendererGroup variants stripping' in the console. what's that"""),
    A("""The GPU Resident Drawer needs the BatchRendererGroup (BRG) shader variants. Project Settings → Graphics → **BatchRendererGroup Variants** must be set to "Keep All" (the default strips them when no BRG usage is detected at build time). Set it, and also check the URP asset has **GPU Resident Drawer: Instanced Drawing** and that your renderers use **Forward+** (the resident drawer needs it)."""),
    U("it was the BRG variants setting. draw calls dropped a LOT"),
)

SESSIONS.add(
    "dog-01", "2025-03-18 19:30",
    U("""we adopted a retired racing greyhound!!! her name is Biscuit, she's 4, brindle, very tall and very confused by stairs. We picked her up on Saturday from the rescue in Fife. She's never lived in a house. Any tips for the first weeks, especially leaving her alone on my office days (Sam's at the uni those days too)?"""),
    A("""Congratulations, and welcome, Biscuit! Ex-racers are usually gentle and sleep a lot, but a house is a new world for them. For the first weeks:

**Settling in**
- **Stairs:** go slowly, one step at a time with a harness and a treat on each step. Many greyhounds learn in a few days; some need a week. Don't carry her up every time or she won't learn.
- **Glass doors, mirrors and slippery floors** are new too. Rugs on wooden floors help a lot with those long legs.
- **A quiet bed** in a corner where she can't be approached from behind. Ex-racers are used to kennels; a crate with the door open often feels safe.

**Leaving her alone**
- Build up gradually: leave for 5 minutes, then 15, then 30, over the first couple of weeks, before she has to do a full day.
- On your Tuesday/Thursday office days, a full day alone is too long at first. A dog walker or a neighbour visit at midday is worth it for the first month or two.
- A pet camera lets you check for separation stress (pacing, whining). If it's bad, talk to the rescue: they usually have a behaviourist.

**Other**
- Greyhounds get cold: a coat for Edinburgh winters and springs.
- Muzzle-trained ex-racers are used to it; use it in the early weeks around small dogs until you know her prey drive.
- Feed her from a raised bowl; they're tall.

Enjoy her, greyhounds are the best couch companions."""),
    U("she already took over the sofa lol. we found a dog walker for tue/thu"),
    A("A sofa-claiming greyhound is a happy greyhound. A walker on the long days is a good plan."),
    U("oh and she's scared of the dishwasher. is that normal"),
    A("""Completely normal for an ex-racer: kennels are quiet and predictable, and a dishwasher, washing machine or hoover is a new, loud thing. Run it when she's in another room or on a walk at first, then let her be in the room with it while you give her treats. Most greyhounds stop caring within a few weeks."""),
    U("treats + dishwasher, she'll like that plan"),
)

SESSIONS.add(
    "publisher-01", "2025-03-25 10:10",
    U("""We have a pitch with Northlight Publishing on Thursday. Callum is presenting, I'm doing the tech slides. Draft:

Slide: Tech
- Unity 6, URP, Fish-Networking w/ Steam relay
- 4 player co-op, host-based
- Steam Deck: 30 fps, targeting 40
- Saves: migrating to MessagePack, Steam Cloud
- CI: TeamCity, Windows + Linux builds, ~35 min
- Risks: late join, host migration (post-EA)

Too much? They're not technical."""),
    A("""For a non-technical audience, the tech slide should answer one question: "can this team ship and support this game?" Here's a tighter version:

**Slide: Built to ship**
- **Runs great on Steam Deck.** 30 fps today, aiming for 40.
- **Co-op that just works.** Play with friends through Steam, no servers to run, no port forwarding.
- **Modern, supported tech.** Unity 6, upgraded in two days.
- **Fast turnaround.** A new build every 35 minutes; we shipped a Next Fest hotfix in under a day.
- **Known risks, with a plan.** Late join by May; host migration after Early Access.

Keep the detailed version (Fish-Networking, MessagePack, TeamCity) as a backup slide in case someone technical asks. Publishers worry mostly about port and support costs, so if they ask about consoles, have a one-line answer ready about what a Switch port would need (memory budget, Deck perf as a proxy)."""),
    U("much better. callum will love 'upgraded in two days'"),
    A("It's true, and it says a lot about the codebase in four words."),
    U("the backup slide: should I put the CI time there too or is that noise"),
    A("""Noise for that audience. Keep the backup slide to things a technical due-diligence person would ask about: engine version, netcode stack and hosting model (player-hosted via Steam relay, so no server costs), platforms, save/cloud approach and known risks. CI time is a detail of how you work, not a risk to them."""),
    U("ok cut. pitch is thursday 10am, wish us luck"),
    A("Good luck! Lead with the Next Fest numbers; they're the strongest thing you have."),
)

SESSIONS.add(
    "misc-02", "2025-03-28 15:00",
    U("""we send playtest + demo telemetry to a Postgres db. I ran this to find where players die:

```
tidebreak=> SELECT room, count(*) AS deaths, round(avg(run_minute)::numeric, 1) AS avg_minute
tidebreak-> FROM death_events WHERE build LIKE 'demo-%' GROUP BY room ORDER BY deaths DESC LIMIT 6;
       room        | deaths | avg_minute
-------------------+--------+------------
 Drowned Chapel    |   4121 |       27.4
 Archivist Arena   |   3877 |       36.9
 Flooded Archive   |   2010 |       12.2
 Pump Station      |   1466 |       19.8
 Reading Room      |    712 |        8.1
 Sluice Gate       |    455 |       22.6
(6 rows)
```

Surprised the chapel beats the boss arena. how do I check if it's one specific spawn in the chapel?"""),
    A("""Good query. The Drowned Chapel having more deaths than the Archivist's arena is interesting, because the chapel is mid-run (average minute 27.4) while the boss is at minute ~37. Let me suggest how to drill in.

If your `death_events` rows carry the killer and position, something like:

```sql
SELECT killer_type,
       width_bucket(pos_x, -40, 40, 8) AS cell_x,
       width_bucket(pos_z, -40, 40, 8) AS cell_z,
       count(*) AS deaths
FROM death_events
WHERE build LIKE 'demo-%' AND room = 'Drowned Chapel'
GROUP BY killer_type, cell_x, cell_z
ORDER BY deaths DESC
LIMIT 10;
```

This groups deaths into an 8×8 grid over the room (adjust the bounds to the chapel's size) per enemy type. If one cell and one enemy type dominate, it's a specific spawn or hazard. If deaths spread across the room, it's a difficulty spike (e.g. the first room with two enemy types at once).

Also worth checking `count(DISTINCT run_id)`: if a few runs die many times there (co-op revive loops), the raw count overstates how many players it stops."""),
    U("one cell, eels, right at the entrance. there's an eel spawn behind the door. moving it"),
    A("A spawn behind a door at a room's entrance is a classic cause. Check the numbers again after the next build to confirm."),
    U("and how do I see if it's the same players dying over and over"),
    A("""Count runs and players next to deaths:

```sql
SELECT room,
       count(*) AS deaths,
       count(DISTINCT run_id) AS runs,
       count(DISTINCT player_id) AS players,
       round(count(*)::numeric / count(DISTINCT run_id), 2) AS deaths_per_run
FROM death_events
WHERE build LIKE 'demo-%'
GROUP BY room
ORDER BY deaths DESC;
```

If `deaths_per_run` is much higher in the chapel than elsewhere, a few groups are dying repeatedly there (revive loops); if it's similar, it's a general difficulty spike."""),
    U("""deaths_per_run chapel 1.9, arena 1.4, others ~1.1. so revive loops at the door. the spawn move should fix both"""),
)

SESSIONS.add(
    "perf-03", "2025-04-01 11:20",
    U("""Unity 6 gave us a nice boost on the Deck. Priya says we're now targeting 40 fps on Deck (using the 40Hz refresh mode) for EA instead of 30. Profiler on the same Flooded Archive fight as back in October:

```
Frame time (ms)            2022.3   Unity 6
CPU main thread             31.9     22.6
Render thread               18.4     14.1
GPU                         24.7     21.3
GC alloc per frame (KB)     11.2      9.8
Draw calls                 1,940      610
```

21.3 ms GPU means we're not at 25 ms for 40fps... wait we are. what should I look at next to get headroom?"""),
    A("""You read it right: 40 fps is a 25 ms frame budget, and your slowest part is now the GPU at 21.3 ms, so you're at about 47 fps in this fight with ~3.7 ms of headroom. That's thin for the worst fights of later biomes, so here's where I'd look for more headroom:

**GPU (21.3 ms, the limit now)**
- The drop from 1,940 to 610 draw calls is the GPU Resident Drawer working. The GPU cost now is probably **fill rate**: the water surface, fog and particles. Try the Frame Debugger / RenderDoc on a Deck capture and check the water pass and transparent particles.
- **Render scale**: 0.85 with FSR 1 upscaling on the Deck is usually hard to notice at 800p and saves a lot.
- **Additional lights**: per-object light limits and shadows on additional lights are expensive; limit shadowed lights per room.

**CPU main thread (22.6 ms)**
- Still close to the budget: with 4 players and more enemies it will cross 25 ms. Your next candidates are EelAI and the projectile updates: a Burst job for projectile movement is a well-contained change.

**Render thread (14.1 ms)** is fine.

I'd make a per-room budget sheet: GPU ≤ 20 ms and main thread ≤ 20 ms in the heaviest fight of each room, measured on the Deck with 4 players, and check it weekly."""),
    U("render scale 0.85 + fsr is basically invisible on the deck screen. gpu is 17.8 now"),
    A("17.8 ms gives you 7 ms of headroom, which is a much more comfortable place for later biomes."),
    U("would a burst job for projectiles really help with 96 projectiles? seems small"),
    A("""For 96 projectiles the win isn't huge, maybe 1–2 ms on the Deck, but it's predictable and contained: moving positions and sweeping for hits is a textbook job (`IJobParallelFor` with `RaycastCommand` or `SpherecastCommand` batches). The bigger reason to do it is the rapid-fire upgrade with 4 players, where the count goes to 200+. If you want a cheaper first step, merge the 96 `Update()` calls into one manager loop and measure again."""),
    U("manager loop first, then see"),
)

SESSIONS.add(
    "save-02", "2025-04-08 13:40",
    U("""save v8 (messagepack) shipped to the internal beta last week. one tester lost progress. their Player.log:

```
[Save] Loading profile from C:/Users/.../AppData/LocalLow/Lanternfish/Tidebreak/profile.dat
[Save] Detected format v8 (msgpack), 41,233 bytes
MessagePack.MessagePackSerializationException: Failed to deserialize Tidebreak.Saves.ProfileV8 value.
 ---> MessagePack.MessagePackSerializationException: Unexpected msgpack code 193 (never used) encountered.
   at MessagePack.MessagePackReader.ThrowInvalidCode(Byte code)
   at MessagePack.MessagePackReader.TryReadArrayHeader(Int32& count)
[Save] Load failed, falling back to new profile
[Save] Writing profile.dat (new profile)
```

the "falling back to new profile" part then overwrote their old save. ugh"""),
    A("""Two problems here, and the second is the serious one.

**1. Why it failed to load**
`193` is `0xC1`, the one byte MessagePack never uses. Reading it means the file isn't valid MessagePack from that point: a truncated or partially written file, or bytes from another format. Since you write with `File.Replace` from a temp file (hopefully), the usual suspects are:
- **Steam Cloud syncing a half-written file**: check that `*.tmp` is excluded from Auto-Cloud.
- **LZ4 mismatch**: data written with `Lz4BlockArray` but read without those options (or the reverse). Make sure reader and writer share one `MessagePackSerializerOptions` instance.

**2. Never overwrite a save you failed to read**
The fallback "new profile, then write" is what destroyed the progress. Change it to:
- On load failure, **rename the bad file** to `profile.dat.corrupt-<timestamp>` and keep it.
- Try the **backup**: keep the previous good save as `profile.dat.bak` (rotate on each successful write).
- Only if both fail, start a new profile, and tell the player in the UI, with a link to where the corrupt file is.

With the `.bak` rotation this tester would have lost at most one dive. Ask them for the `profile.dat` file if it still exists anywhere (Steam Cloud may have an older version), and run it through `MessagePackSerializer.ConvertToJson` to see where it breaks."""),
    U("it was the lz4 options, the loader made its own options without compression. bak rotation is in. tester's cloud copy was fine so we restored it"),
    A("Glad the cloud copy saved it. That's the kind of bug that's best found in an internal beta."),
    U("should the .bak rotation also be cloud synced?"),
    A("""Yes, include `*.bak` in the Auto-Cloud pattern. If the local disk is fine but the main file is corrupt, the local `.bak` saves you; if the player moves to another machine, the cloud `.bak` does. Just keep `*.tmp` excluded. It's a few KB more per player in cloud quota, which is nothing."""),
    U("done"),
)

SESSIONS.add(
    "input-01", "2025-04-10 09:30",
    U("quick one. steam deck players can't rebind the grapple in our menu because we use the old Input Manager for some actions and the new Input System for others. is it worth moving everything to the Input System before EA?"),
    A("""Yes, I'd do it before EA, for three reasons:

1. **Rebinding** is expected on PC and only the Input System has a rebinding API (`PerformInteractiveRebinding`) with saved overrides (`SaveBindingOverridesAsJson`).
2. **Steam Input** works best when your game reads actions from one system; mixed systems produce the kind of "this button works in menus but not in game" bugs Deck players report.
3. **Glyphs**: to show the right button icons (Xbox, PlayStation, Deck), you need to know which device and binding drove an action, which the Input System gives you.

To keep it small: list the actions still on the old Input Manager (usually a handful: pause, grapple, debug keys), move them into your existing `.inputactions` asset, switch Player Settings → Active Input Handling from "Both" to "Input System Package (New)" and fix what breaks. For a game where most input is already on the new system, that's a couple of days."""),
    U("4 actions left. doing it today"),
    A("Good luck. Test rebinding on the Deck with Steam Input on and off, since both setups exist in the wild."),
    U("done. 4 actions moved, rebinding works on deck. glyphs next week"),
    A("""Nice. For glyphs, the Input System's `InputControlPath.ToHumanReadableString` gets you names, but for icons you'll want a lookup from control path to sprite per device family (Xbox, PlayStation, Switch Pro, Deck). Steam Input can also tell you the glyph for an action when Steam Input is active; that's the most accurate on the Deck."""),
)

SESSIONS.add(
    "course-02", "2025-04-15 21:00",
    U("""finished the Blender course last week, my final project was a low-poly rowing boat that our artist said she'd actually use as a background prop 🥲 next: I signed up for an intro to Houdini course online (SideFX's free one + a paid 6-week cohort on Thursdays starting May 8) because our tech artist wants procedural kelp. anything I should know before starting Houdini as a programmer?"""),
    A("""Congratulations on the boat, that's a great outcome for a first course. Houdini will feel very different from Blender; as a programmer, here's what helps:

- **Think in data flow, not objects.** A Houdini network is a pipeline of operations on geometry (points, primitives, vertices, detail) with attributes on each. It's closer to a functional program than to modelling.
- **Learn attributes and the spreadsheet early.** Most "why doesn't this work" moments are an attribute on the wrong class (point vs primitive).
- **VEX will feel familiar.** It's C-like, runs per element in parallel (like a shader), and Attribute Wrangle nodes are where you'll write it.
- **For kelp specifically**: look at curve-based workflows (curves → sweep), L-systems, and the Vellum solver for sway. For Unity, you'll bake the result to meshes or use Houdini Engine for Unity to generate in-editor.
- **Don't try to learn every context at once.** SOPs (geometry) first; ignore DOPs and LOPs until you need them.

The SideFX "Foundations" series is a good start before the cohort begins."""),
    U("data flow like a shader, that helps. thx"),
    A("Shaders are a good mental model: a wrangle runs the same code over every point, just like a shader over every pixel."),
    U("also my teacher at the blender course said I should keep doing one small model a week. is that realistic with a full time job"),
    A("""It's realistic if "small" means small: one prop in an hour or two at the weekend (a crate, a lamp, a barrel). The point is regular practice, not output. Keep a folder of them; in six months you'll have 25 props and a clear sense of how much you improved, and your artists might use some of them as greybox stand-ins."""),
    U("1-2h on sunday mornings while biscuit naps. doable"),
)

SESSIONS.add(
    "team-04", "2025-04-22 18:15",
    U("""Big news: we signed with Northlight Publishing last Friday! And the EA date moves again, now to September 2025 (they want to launch after Gamescom, in late August, and fund localisation into 5 languages first). The June 12 date is dead. Priya says the extra time also means late join can be done properly. Feeling good about it tbh.

Can you help me re-plan my work from now to September in broad strokes? Current list: late join, grapple prediction polish, localisation support in UI code, 40 fps on deck in all biomes, Switch port prep (publisher wants it after EA), achievements."""),
    A("""Congratulations! A publisher deal with funded localisation and a Gamescom beat is a big step for an 11-person studio. With EA now in September, here's a broad plan (about 20 weeks):

**May: Foundations**
- **Localisation support in UI code.** Do this first, because it touches every screen: move all strings to the Unity Localization package's string tables, make layouts handle 30–40% longer text (German), and check fonts for the five languages. The translators need extracted strings early.
- **Grapple prediction polish.** Short, and it keeps the feel work from being squeezed later.

**June–July: Big systems**
- **Late join.** Now you can do it properly: a run-state snapshot (room, enemies, loot, player inventories) serialised on the host and sent to the joiner, then normal replication. Budget 4–5 weeks including testing with latency.
- **Achievements.** Small; slot it in as a break between late-join chunks.

**July–August: Performance**
- **40 fps on Deck in all biomes.** Use the per-room budget sheet; later biomes will be heavier than the Archive.
- **Switch port prep.** Since the port comes after EA, prep means: memory budget audit (the Switch has far less RAM than the Deck), a list of platform-specific code, and keeping shader variants and texture sizes under control. No Switch build yet.

**August: Gamescom build + stabilisation**
- A Gamescom demo build from the EA branch, then only bug fixes into September.

Put a two-week buffer before the launch date; September dates tend to move when Gamescom feedback lands."""),
    U("the localisation-first ordering is smart, I hadn't thought about translators needing strings early"),
    A("It's the item that most often delays launches when it's left to the end, so putting it first is a safe bet."),
    U("also, Priya says we'll do the Gamescom demo in the business area with Northlight, not a public booth. does that change anything for the build?"),
    A("""Yes, in a good way: a business-area demo is played by press, creators and partners, in short sessions, often with you standing next to them.

- Make a **curated build**: a save or a start menu option that drops players into the best 15 minutes (the Archive + a fight with the new mechanics), not the tutorial.
- **Offline and stable**: convention Wi-Fi is unreliable, so the co-op demo should run on a local network or a single machine with controllers.
- A **reset hotkey** for you to get back to the start in seconds between meetings.
- Turn off telemetry uploads and crash reporting prompts that need the internet."""),
    U("reset hotkey is a very good idea. adding to my list"),
)

SESSIONS.add(
    "loc-01", "2025-04-29 14:50",
    U("""localisation: languages are French, German, Spanish, Brazilian Portuguese and Japanese. we exported our string table to CSV for the agency:

```
Key,English(en),French(fr),German(de),Spanish(es),Portuguese (Brazil)(pt-BR),Japanese(ja)
ui.menu.play,Play,,,,,
ui.menu.settings,Settings,,,,,
loot.harpoon.rapid.name,Rapidfire Harpoon,,,,,
loot.harpoon.rapid.desc,"Fires {0} harpoons per second, +{1}% damage to eels",,,,,
hud.revive.prompt,Hold {0} to revive {1},,,,,
```

the agency asked what {0} and {1} mean. how do we give them context?"""),
    A("""Placeholders without context are the most common cause of bad game translations, so it's good they asked. Ways to give context:

1. **Use named placeholders instead of indexed ones.** The Unity Localization package supports Smart Strings: `"Fires {shots_per_second} harpoons per second, +{bonus_percent}% damage to eels"` and `"Hold {button} to revive {player_name}"`. Translators can reorder named placeholders safely (Japanese word order will need it).
2. **Add a comment column.** The string table entries support metadata (the `Comment` metadata type), which exports to CSV as an extra column. Write what each placeholder is, the maximum length, and where the text appears ("HUD, bottom centre, max 30 characters").
3. **Send screenshots.** A folder of screenshots named by key for the UI strings is the single most useful thing for translators.
4. **Mark strings that must not be translated**, e.g. the game's name and enemy proper names if you keep them.

For `{0}` in the revive prompt specifically: it'll be a button glyph, so tell them it's an icon, not text, or they'll try to translate "button"."""),
    U("named placeholders it is. I'll add the comment column too"),
    A("Both will pay off: the comment column also helps your own team remember what each placeholder is."),
    U("the japanese text will need a different font right? our font is latin only"),
    A("""Yes. Add a Japanese font (Noto Sans JP is a common free choice with a permissive licence) as a **fallback** font asset in TextMesh Pro, and generate its atlas dynamically or with a character set taken from your translated strings (a static atlas with all kanji would be huge). Check line breaking too: TMP has Japanese line-breaking rules (kinsoku) you should enable in the TMP settings."""),
    U("noto sans jp as fallback, dynamic atlas. will test when the first strings come back"),
)
SESSIONS.add(
    "tests-01", "2025-02-21 08:20",
    U("""on the train. moved loot generation into a plain C# lib (Tidebreak.Loot, netstandard2.1) with an xunit project like we discussed. first run:

```
$ dotnet test Tidebreak.Loot.Tests
  Determining projects to restore...
  All projects are up-to-date for restore.
  Tidebreak.Loot -> /home/me/src/tidebreak/Loot/bin/Debug/netstandard2.1/Tidebreak.Loot.dll
  Tidebreak.Loot.Tests -> /home/me/src/tidebreak/Loot.Tests/bin/Debug/net8.0/Tidebreak.Loot.Tests.dll
Test run for /home/me/src/tidebreak/Loot.Tests/bin/Debug/net8.0/Tidebreak.Loot.Tests.dll (.NETCoreApp,Version=v8.0)
Microsoft (R) Test Execution Command Line Tool Version 17.11.1
Starting test execution, please wait...
A total of 1 test files matched the specified pattern.
[xUnit.net 00:00:00.41]     Tidebreak.Loot.Tests.RollTableTests.Rarity_distribution_matches_weights(seed: 7) [FAIL]
  Failed Tidebreak.Loot.Tests.RollTableTests.Rarity_distribution_matches_weights(seed: 7) [12 ms]
  Error Message:
   Assert.InRange() Failure: Value not in range
Range:  (0.045 - 0.055)
Actual: 0.0612
  Stack Trace:
     at Tidebreak.Loot.Tests.RollTableTests.Rarity_distribution_matches_weights(Int32 seed) in /home/me/src/tidebreak/Loot.Tests/RollTableTests.cs:line 38

Failed!  - Failed:     1, Passed:    47, Skipped:     0, Total:    48, Duration: 311 ms - Tidebreak.Loot.Tests.dll (net8.0)
```

legendary weight is 5%. is my test wrong or the code"""),
    A("""Could be either, so let me check the arithmetic first. How many rolls does the test do? If it's 10,000 rolls at p = 0.05, the standard deviation of the observed share is √(0.05 × 0.95 / 10,000) ≈ 0.0022. Your range 0.045–0.055 is about ±2.3 standard deviations, so a fair roller fails that test roughly 2% of the time for a random seed. But 0.0612 is about **5 standard deviations** above 0.05: that's not bad luck, that's the code.

Common causes in weighted roll tables:

1. **Off-by-one in the cumulative walk**: using `<=` instead of `<` when comparing the random number to the cumulative weight, which gives the boundary value to the wrong bucket. With integer weights this shifts probability by 1/total per boundary.
2. **Weights not normalised after a modifier**: e.g. a luck modifier applied to legendary weight before computing the total, then the total computed from the base weights.
3. **Rerolls**: code that rerolls duplicates of a common item but not of legendaries inflates the legendary share.

Paste `RollTable.Roll` and I'll point at it."""),
    U("""```csharp
public Rarity Roll(Random rng) {
    int total = _weights.Sum(w => w.Weight);
    int pick = rng.Next(total);
    foreach (var w in _weightsWithLuck) {
        if (pick < w.Weight) return w.Rarity;
        pick -= w.Weight;
    }
    return Rarity.Common;
}
```"""),
    A("""There it is, cause 2: `total` is summed over `_weights`, but the loop walks `_weightsWithLuck`. If luck raises the legendary weight, the walk's buckets add up to more than `total`, and the extra probability comes out of the last bucket (and the `Rarity.Common` fallback never fires the way you'd think).

Use the same list for both:

```csharp
public Rarity Roll(Random rng)
{
    var weights = _weightsWithLuck;
    int total = 0;
    for (int i = 0; i < weights.Count; i++) total += weights[i].Weight;

    int pick = rng.Next(total);
    for (int i = 0; i < weights.Count; i++)
    {
        if (pick < weights[i].Weight) return weights[i].Rarity;
        pick -= weights[i].Weight;
    }
    throw new InvalidOperationException("unreachable: pick is below total");
}
```

The `throw` replaces the silent `Common` fallback: if the loop ever ends, it's a bug and you want to know. And the test should set luck explicitly (0 for the distribution test), otherwise it tests whatever luck default the table has."""),
    U("""yep. luck default was 0.2 in the test fixture. fixed, 48/48 green. 311ms for the whole suite vs 40s to open unity, I'm never going back"""),
    A("That's the nice thing about pulling pure logic out of Unity: you can run it on every save. If you want, add the lib's tests as a first step in the TeamCity build: they'll fail in seconds before an IL2CPP build spends 30 minutes."),
    U("added to teamcity, it's the first build step now"),
)

SESSIONS.add(
    "build-02", "2025-05-06 16:05",
    U("""trying to automate steam uploads from teamcity with steamcmd. it fails:

```
[16:01:12] Logging in user 'lanternfish_build' to Steam Public...
[16:01:14] This computer has not been authenticated for your account using Steam Guard.
[16:01:14] Please check your email for the message from Steam, and enter the Steam Guard
[16:01:14]  code from that message.
[16:01:14] You can also enter this code at any time using 'set_steam_guard_code'
[16:01:14]  at the console.
[16:01:14] Steam Guard code:FAILED (Account Logon Denied)
[16:01:14] Process exited with code 5
```"""),
    A("""This is Steam Guard stopping a new machine from logging in with the build account. The build agent needs to be authenticated once, and then the login is cached in `config/config.vdf` under the steamcmd folder.

Steps:

1. On the build agent, as the **same user the TeamCity agent runs as**, run steamcmd interactively once: `steamcmd +login lanternfish_build` and enter the Steam Guard code from the email. This writes the sentry/config so later logins don't ask.
2. Make sure that steamcmd folder persists between builds (not a per-build temp folder), since the cached auth lives there.
3. Use a dedicated build account with only the permissions it needs (upload builds, set beta branches, **not** release to the default branch), and don't use a personal account.
4. Keep the password in a TeamCity secure parameter (`%env.STEAM_BUILD_PASSWORD%`), not in the build script.

If your build account uses the mobile authenticator instead of email, you'll have to switch it to email Steam Guard for build machines, or the code changes every 30 seconds."""),
    U("ok authenticated. now it uploads but which branch does it go to? I want every main build on a 'internal' beta branch and only tagged builds on 'beta'"),
    A("""The branch is set in the **app build VDF** with `SetLive`. Have two VDF files, or generate the value from the build:

```
"AppBuild"
{
    "AppID" "2810450"
    "Desc" "%build.vcs.number% %teamcity.build.branch%"
    "SetLive" "internal"
    "ContentRoot" "..\\Build\\"
    "BuildOutput" "..\\SteamOutput\\"
    "Depots"
    {
        "2810451" "depot_windows.vdf"
        "2810452" "depot_linux.vdf"
    }
}
```

In TeamCity, make a parameter `steam.branch` that is `internal` by default and `beta` when the build runs from a tag (a second build configuration triggered on tags is simplest), and write it into `SetLive` before calling `steamcmd +login ... +run_app_build app_build.vdf +quit`.

Steam never lets `SetLive` set the **default** branch: releasing to players always stays a manual click in Steamworks, which is what you want."""),
    U("is 'Desc' visible to players?"),
    A("""No. The description shows only in Steamworks' build list for your team (Builds page), so it's the right place for the commit hash and branch. Players only see the branch names you make public (and beta branches with passwords only to those who have them)."""),
    U("great. main builds now land on internal in about 40 min from push"),
    A("Nice. If the 40 minutes matters, the next win is usually caching the `Library` folder between builds on the agent, since the IL2CPP step can reuse its cache too."),
)

SESSIONS.add(
    "life-04", "2025-05-13 21:20",
    U("""heading to Porto on the 21st for Marta's wedding (24th), then Sam and I stay on for 5 days in Lisbon, back on the 30th. Biscuit is staying with our downstairs neighbour Aileen who has a lurcher she gets on with. I'll be offline for the whole trip which is a first since I started at lanternfish. can you help me write an out-of-office handover for the team? I own netcode + perf, the late join branch is half done"""),
    A("""Here's a handover you can post in the team channel and pin:

---

**Out of office: May 21 – May 30 (back Monday June 2)**

I'm at my sister's wedding and then on holiday, and fully offline. Priya has context on everything below.

**Late join (branch `feature/late-join`)**
- Done: run-state snapshot for rooms and enemies, serialised on the host.
- Not done: player inventories in the snapshot, and the joiner's loading flow.
- Please don't merge it; it's safe to rebase if main moves a lot.

**Netcode**
- Known issue: grapple jitter at >200 ms ping, tracked in TB-812. Not a blocker.
- If a desync appears in a playtest, grab both players' `Player.log` and the replay file and file it; don't try to fix prediction code on a deadline.

**Performance**
- The per-room budget sheet is in the Tech Docs drive. If something goes over 25 ms on the Deck, note the room and the build number there.

**Builds**
- Main builds go to the `internal` Steam branch automatically. Tagged builds go to `beta`.

See you on the 2nd!

---

Change the ticket numbers and links to your real ones."""),
    U("the ticket number was a guess but it's actually TB-812 lol. thanks"),
    A("Lucky guess! Enjoy the wedding, and good luck with the reading."),
    U("thx! I think I'll add the portuguese line, Marta's fiancé's mum is going to cry"),
)

SESSIONS.add(
    "net-05", "2025-05-20 10:30",
    U("""decision made yesterday: co-op is now capped at 3 players instead of 4. reasons: design says revives and loot split feel better with 3 (4 turned into chaos in the late biomes), and our late join snapshot + prediction bandwidth with 4 on bad connections was borderline. here's the per-client bandwidth from the last 4-player test:

```
Transport stats (FishySteamworks), 10 min session, host = player 1
client   avg_out_kbps  avg_in_kbps  peak_in_kbps  rtt_ms  loss_pct
p2            14.2         96.8         402.5        38     0.1
p3            13.9         98.1         417.9        61     0.4
p4            14.6        101.3         463.0       143     2.7
host out total            308.4 kbps
```

does 3 change anything I should retune?"""),
    A("""Let me check what these numbers say first. With 3 clients each receiving ~97–101 kbps on average, the host uploads about 308 kbps in total, and the peaks are the worry: p4 peaked at 463 kbps while on 143 ms RTT with 2.7% loss. Peaks like that during big fights are where a host on a home connection starts dropping packets for everyone.

With a cap of 3 players (host + 2 clients), the host's upload drops by about a third (~200 kbps average) and the peak shrinks similarly. Things worth retuning:

1. **Tick rate.** You're at 50 Hz. With 3 players you could keep 50 and spend the saved bandwidth on a larger late-join snapshot; I wouldn't raise it.
2. **Enemy count per room.** If design tuned encounters for 4, enemy counts and HP scaling need a pass for 3: HP scaling per extra player is usually the thing to change, not spawn counts.
3. **Interest management.** With fewer players, the observers' radius can be larger before it costs much; check the `ObserverManager` distance conditions.
4. **UI and lobby.** The lobby, Steam rich presence ("2/3 in lobby"), and any 4-player-specific layout (HUD portraits) need updating.
5. **Late join snapshot.** It's now sent to at most 2 clients, so you can afford to send it uncompressed if compression was costing CPU on the host.

Also update the store page and the pitch materials: "co-op for up to 3 players" instead of 4."""),
    U("ugh the store page says 4 in like 5 places. ok"),
    A("""Quick checklist for the store side:
- Short description and About section text.
- Steam features/tags: "Online Co-op" stays, but check any "4 players" wording in the capsule art.
- The trailer's end card if it says "1–4 players".
- Press kit and the Northlight pitch deck.
- The demo's Steam page (it's a separate app)."""),
    U("trailer end card says 1-4 players. I'll tell marketing"),
)

SESSIONS.add(
    "late-01", "2025-06-04 15:10",
    U("""back from holiday, great trip, Marta cried at the portuguese line. ok: late join. player inventories are in the snapshot now. integration tests (playmode, via the Unity test runner in batchmode):

```
$ Unity -batchmode -projectPath . -runTests -testPlatform PlayMode -testFilter LateJoin -logFile - | grep -E "Test|Passed|Failed"
TestRunner: running 9 tests
  [PASS] LateJoinTests.Joiner_receives_room_state (2.31s)
  [PASS] LateJoinTests.Joiner_receives_enemy_state (2.48s)
  [PASS] LateJoinTests.Joiner_receives_own_inventory (1.97s)
  [PASS] LateJoinTests.Joiner_sees_other_inventories_as_loot_counts (2.02s)
  [FAIL] LateJoinTests.Joiner_spawns_at_party_leader (3.10s)
         Expected: within 4.0 of (31.20, 0.00, 14.70)
         But was:  (0.00, 0.00, 0.00)
  [PASS] LateJoinTests.Joiner_during_boss_waits_for_phase_end (6.44s)
  [PASS] LateJoinTests.Snapshot_under_64KB (0.88s)
  [FAIL] LateJoinTests.Joiner_after_extraction_started_is_refused (1.12s)
         Expected: JoinResult.Refused
         But was:  JoinResult.Accepted
  [PASS] LateJoinTests.Third_player_can_join_second_only_game (2.75s)
TestRunner: 7 passed, 2 failed
```

the spawn one spawns at world origin. the extraction one I just haven't implemented lol"""),
    A("""Good progress, 7 of 9 on the first run of integration tests for late join is a good place to be.

**`Joiner_spawns_at_party_leader` → (0, 0, 0)**
A spawn at exactly the origin almost always means the position was read before it was set: the joiner's player object is spawned, and the position comes later in the snapshot (or in a SyncVar that arrives a tick later), so at the moment the test checks, it's still `Vector3.zero`. Two likely causes:

1. The host spawns the joiner's player object **before** applying the snapshot's spawn point. Compute the spawn point on the host and pass it to `Spawn` (set the transform before `ServerManager.Spawn`), so the initial spawn message carries it.
2. With client-side prediction, the predicted player's first reconcile state may be default-initialised. Make sure the first `Reconcile` data the server sends contains the spawn position, not a zeroed struct.

Also make the test wait for the joiner to be fully spawned (`yield return new WaitUntil(() => joiner.IsSpawned && joiner.HasReceivedSnapshot)`) rather than a fixed delay, or it'll be flaky later.

**`Joiner_after_extraction_started_is_refused`**
A clean way: the host's `RunState` already knows the phase; in the connection approval callback, refuse with a reason when `RunState.Phase >= RunPhase.Extracting`, and show the reason in the joiner's UI ("The crew is extracting; try again in a moment").

The snapshot test staying under 64 KB is a good guardrail; keep it."""),
    U("it was 1. the spawn call happened before ApplySpawnPoint. 9/9 now"),
    A("Nice. Run the suite a few times in a row (`-testFilter LateJoin` with a loop) to shake out any flakiness before you merge; late join tests tend to have timing issues that only show on the third or fourth run."),
    U("ran it 20x, all green. merging tomorrow after Priya reviews"),
)

SESSIONS.add(
    "perf-04", "2025-06-10 11:45",
    U("""Switch port prep. Northlight's porting partner says budget is 3 GB for the game on Switch. memory profiler snapshot from the Deck build in the Drowned Chapel:

```
Category                 Size
Textures                 1.71 GB
Meshes                   412 MB
Audio (FMOD banks)       298 MB
Managed heap             611 MB
  of which empty         214 MB
Render textures          357 MB
Shaders                  188 MB
Other native             402 MB
Total committed          3.97 GB
```

where do I find 1 GB"""),
    A("""A gigabyte out of ~4 is a lot but doable, and most of it is in two places.

**Textures: 1.71 GB → ~0.8 GB**
- The Switch target is 720p docked-ish output at most in handheld; most textures authored for PC at 2K can ship at 1K. Use per-platform texture overrides: max size 1024 for props and environment, 2048 only for a few hero assets.
- Use ASTC compression on Switch (e.g. ASTC 6×6 for colour, 4×4 for normals where quality matters). ASTC 6×6 is ~3.6 bits per pixel versus 8 for BC7.
- This alone is usually 0.8–1 GB.

**Render textures: 357 MB → ~150 MB**
- These scale with resolution: at 720p or dynamic resolution they shrink a lot. Check for any full-resolution buffers you don't need on Switch (e.g. an extra copy for the outline pass).

**Managed heap: 611 MB, 214 MB of it empty**
- An empty third means the heap grew during a spike and never shrank. Find the spike (probably loading or the save) and reduce it; Unity doesn't return heap memory, so peaks become permanent.

**Audio: 298 MB**
- Stream music and ambience instead of loading them into memory; compress SFX with Vorbis/Opus at lower quality on Switch.

**Meshes: 412 MB**
- Turn off Read/Write on meshes that don't need CPU access (it keeps a second copy), and use LODs more aggressively.

Do textures and Read/Write first: they're mechanical changes with big wins."""),
    U("""read/write was on for 214 meshes. turned it off for everything except the 12 used by the destruction system. meshes 412 -> 239 MB. textures override next week"""),
)

SESSIONS.add(
    "team-05", "2025-06-17 17:40",
    U("""some news: Priya promoted me to lead gameplay programmer (effective this month). we also hired a junior, Ewan, who joined on June 2 straight out of Abertay. I'm now his mentor. It's my first time mentoring someone properly. what should his first month look like?"""),
    A("""Congratulations on the promotion, it's well earned from everything you've shipped this year. A first month for a junior, built around small wins and gradually more ownership:

**Week 1: Get running, ship something tiny**
- Onboarding doc (you wrote one in October: update it with the Git LFS workflow and Unity 6).
- One tiny, real change merged by Friday: a UI string, a tooltip fix. The point is to go through the whole pipeline once.
- A daily 15-minute check-in.

**Week 2: A small bug in a system you own**
- Pick a bug in enemy AI or loot (loot has fast unit tests now, perfect for a junior).
- Pair on the first hour, then let him work; review his PR in detail and explain the *why* of each comment.

**Weeks 3–4: A small feature with a clear boundary**
- Something like achievements (it's on your plan and well contained: Steamworks stats + a few hooks).
- He writes a short design note first; you review it before code.

**Throughout**
- Weekly 1:1 separate from the check-ins: how's it going, what's confusing, what he wants to learn.
- Keep netcode away from him for the first month; prediction code is a bad place to learn the codebase.
- Ask him to update the onboarding doc with everything that confused him. It's the best source of improvements you'll get.

You'll also want to protect your own focus time, since you're now lead and mentor: block two mornings a week."""),
    U("achievements for Ewan is perfect, that was on my list anyway. ok blocking tue/thu mornings... wait those are train days. wed/fri then"),
    A("Wednesday and Friday mornings work well: you'll be at home, and train days are already good for reviews and writing. Put them in the shared calendar as focus blocks so people see them."),
    U("done. thanks for all the help this year honestly"),
)

SESSIONS.add(
    "ach-01", "2025-06-26 14:25",
    U("""Ewan's achievements PR. he asked why the stats don't show in steam. He pasted me this from his test:

```
[Steam] SteamAPI_Init OK, AppID 2810450
[Achievements] SetStat DIVES_COMPLETED = 3 -> true
[Achievements] SetAchievement ACH_FIRST_DIVE -> true
[Achievements] (no StoreStats call)
```

I know the answer but want to explain it well to him. short explanation?"""),
    A("""Here's a short explanation you can give him:

"`SetStat` and `SetAchievement` only change the values **in the local Steam client's memory**. Nothing is sent to Steam's servers, and the overlay doesn't pop, until you call `SteamUserStats.StoreStats()`. Call it at natural points (end of a dive, after an achievement unlocks), not every frame: Steam rate-limits it. Also, stats must be requested first with `RequestCurrentStats()` and you should wait for the `UserStatsReceived_t` callback before setting anything, or the sets can fail."

And a tip for testing: the Steamworks API `ResetAllStats(true)` clears achievements on the test account so he can trigger them again."""),
    U("perfect. he fixed it, first achievement popped. he was very happy"),
    A("The first overlay pop is a great moment for a new dev. Nice first feature for him."),
)


# Each question: (id suffix, type, question, answer, {supporting session: [a phrase of each answering turn]}).
QUESTIONS: list[Question] = [
    ("ssu-01", "single-session-user", "What is the name of the greyhound the user adopted?",
     "Biscuit, a four-year-old brindle ex-racer.", {"dog-01": ["her name is Biscuit"]}),
    ("ssu-02", "single-session-user", "What game did the user make at the Global Game Jam, and in which engine?",
     "Kelp Courier, made in Godot 4.3.", {"jam-01": ["We made \"Kelp Courier\""]}),
    ("ssu-03", "single-session-user", "Which standing desk did the user order for the home office?",
     "A FlexiSpot E7.", {"health-01": ["FlexiSpot E7"]}),
    ("ssu-04", "single-session-user", "Why did the studio pick GitHub when it moved from Perforce to Git?",
     "The artists already used GitHub Desktop, and GitHub's LFS storage packs were cheaper than a second Perforce "
     "server.", {"vc-01": ["we picked GitHub because"]}),
    ("ssu-05", "single-session-user", "Which room had the most player deaths in the demo telemetry, and how many?",
     "The Drowned Chapel, with 4,121 deaths.", {"misc-02": ["Drowned Chapel    |   4121"]}),
    ("ssu-06", "single-session-user", "What was the demo's median playtime over the whole of Steam Next Fest?",
     "38 minutes.", {"demo-03": ["median playtime (min)       38"]}),
    ("ssu-07", "single-session-user", "What does the user's sister Marta do for a living?",
     "She is a vet.", {"life-02": ["She's a vet"]}),
    ("ssa-01", "single-session-assistant",
     "How many projectiles did you suggest pre-warming in the projectile pool for the Steam Deck frame drops?",
     "256 projectiles (plus a pool of 64 impact VFX).", {"perf-01": ["pool of **256 projectiles**"]}),
    ("ssa-02", "single-session-assistant", "Which serialiser and compression did you recommend for the save files?",
     "MessagePack-CSharp with LZ4 compression (Lz4BlockArray).", {"save-01": ["MessagePack-CSharp with LZ4"]}),
    ("ssa-03", "single-session-assistant", "What tick rate did you recommend after the switch to Fish-Networking?",
     "50 Hz.", {"net-03": ["I'd go to **50 Hz**"]}),
    ("ssa-04", "single-session-assistant", "Which axis settings did your Blender FBX export script use for Unity?",
     "axis_forward '-Z' and axis_up 'Y' (with FBX_SCALE_UNITS and bake_space_transform).",
     {"course-01": ["axis_forward=\"-Z\""]}),
    ("ssa-05", "single-session-assistant", "What minimum text size did you give for the Steam Deck?",
     "At least 9 pixels tall at 1280x800, with 12 px or more comfortable.", {"playtest-01": ["9 pixels tall"]}),
    ("ssa-06", "single-session-assistant", "Which texture compression did you suggest for the Switch port?",
     "ASTC: 6x6 for colour textures and 4x4 for normal maps where quality matters.",
     {"perf-04": ["Use ASTC compression"]}),
    ("multi-01", "multi-session", "How many external testers took part in the two playtests altogether?",
     "36: 14 in the first playtest and 22 in the second.",
     {"playtest-01": ["14 people from our Discord"], "playtest-02": ["twenty-two testers"]}),
    ("multi-02", "multi-session",
     "How much did the user spend of their own money on the Steam Deck OLED and the standing desk together?",
     "£868 (£479 for the Deck and £389 for the desk).",
     {"perf-01": ["with my own money (£479)"], "health-01": ["FlexiSpot E7 standing desk (£389)"]}),
    ("multi-03", "multi-session", "Which two courses did the user sign up for?",
     "An evening Blender course at the Glasgow School of Art (3D modelling for beginners) and an introduction to "
     "Houdini (SideFX's free course and a paid six-week cohort).",
     {"course-01": ["I started an evening Blender course"], "course-02": ["intro to Houdini course"]}),
    ("multi-04", "multi-session", "Which two people were hired at Lanternfish Games while the user talked about work?",
     "Priya Raman, the technical director (December 2024), and Ewan, a junior programmer (June 2025).",
     {"team-02": ["hired a technical director, Priya Raman"], "team-05": ["we also hired a junior, Ewan"]}),
    ("multi-05", "multi-session", "What caused the two desync bugs the user fixed?",
     "The harpoon desync: the server spawned the projectile later than the client did (fixed by rewinding by the "
     "fire tick); the boss desync: host and clients chose attack patterns with the global UnityEngine.Random "
     "(fixed by having the server send the pattern).",
     {"net-01": ["Projectiles desync between host and clients", "The root cause is the pattern itself"],
      "net-04": ["picks attack patterns with UnityEngine.Random"]}),
    ("multi-06", "multi-session", "On which platforms will Tidebreak be released?",
     "Windows and Linux on Steam (including the Steam Deck), with a Switch port after Early Access.",
     {"build-01": ["We ship on Steam for Windows and Linux"], "team-04": ["Switch port prep (publisher wants it"],
      "perf-04": ["Switch port prep"]}),
    ("multi-07", "multi-session", "Which cities did the user travel to for the game jam and for the wedding?",
     "Dundee (Abertay) for the Global Game Jam, and Porto for the wedding, followed by Lisbon.",
     {"jam-01": ["at Abertay in Dundee"], "life-04": ["heading to Porto on the 21st"]}),
    ("multi-08", "multi-session",
     "How many full-game wishlists did the demo bring in the first 30 hours of Next Fest, and over the whole fest?",
     "1,873 in the first 30 hours and 11,900 over the whole fest.",
     {"demo-02": ["\"wishlist_adds_full_game\": 1873"], "demo-03": ["wishlists gained (fest)     11,900"]}),
    ("ku-01", "knowledge-update", "When is Tidebreak's Early Access launch planned?",
     "September 2025, after Gamescom (it was April 24, then June 12).",
     {"team-01": ["Early Access target is April 24"], "team-03": ["Priya moved Early Access from April 24 to June 12"],
      "team-04": ["now to September 2025"]}),
    ("ku-02", "knowledge-update", "Which city does the user live in?",
     "Edinburgh (Leith); they moved from Glasgow on January 4, 2025.",
     {"life-01": ["we're moving from Glasgow to Edinburgh"], "life-03": ["We moved to Edinburgh!"]}),
    ("ku-03", "knowledge-update", "Who is the user's manager?",
     "Priya Raman, the technical director (before December 2024 it was Callum, a co-founder).",
     {"team-01": ["My manager is Callum"], "team-02": ["I'll report to her from then on"]}),
    ("ku-04", "knowledge-update", "What version control does Tidebreak's game repository use?",
     "Git with LFS on GitHub since Christmas 2024 (it was Perforce Helix Core, which is kept only for source art).",
     {"team-01": ["perforce (helix core)"], "vc-02": ["we did the perforce -> git lfs migration"],
      "vc-01": ["perforce for source art stays"]}),
    ("ku-05", "knowledge-update", "Which Unity version is Tidebreak on?",
     "Unity 6 (6000.0.41f1), upgraded from 2022.3 LTS in March 2025.",
     {"team-01": ["Unity 2022.3 LTS"], "u6-01": ["we're upgrading to Unity 6 (6000.0.41f1)"]}),
    ("ku-06", "knowledge-update", "Which networking library does Tidebreak use?",
     "Fish-Networking (4.5.2), which replaced Netcode for GameObjects in December 2024.",
     {"team-01": ["netcode for gameobjects 1.9.1"], "net-03": ["FYI we went with Fish-Networking (4.5.2)"]}),
    ("ku-07", "knowledge-update", "What frame rate does the team target on the Steam Deck?",
     "40 fps (the Deck's 40 Hz mode), raised from 30 fps after the Unity 6 upgrade.",
     {"perf-01": ["Our target on Deck is 30 fps"], "perf-03": ["now targeting 40 fps on Deck"]}),
    ("ku-08", "knowledge-update", "How many players can play Tidebreak's co-op together?",
     "Up to 3 (it was up to 4 until May 2025).",
     {"team-01": ["co-op roguelite for up to 4 players"], "net-05": ["co-op is now capped at 3 players"]}),
    ("ku-09", "knowledge-update", "What is the user's role at the studio?",
     "Lead gameplay programmer, since June 2025 (before that, gameplay programmer).",
     {"team-01": ["I'm a gameplay programmer at Lanternfish Games"],
      "team-05": ["promoted me to lead gameplay programmer"]}),
    ("temp-01", "temporal-reasoning", "How many weeks after moving to Edinburgh did the user adopt Biscuit?",
     "10 weeks (moved on January 4, 2025; picked Biscuit up on Saturday, March 15).",
     {"life-03": ["Moved on the 4th"], "dog-01": ["We picked her up on Saturday"]}),
    ("temp-02", "temporal-reasoning", "How many days before Steam Next Fest began did the user fix the boss-fight desync?",
     "6 days (fixed on February 18, 2025; Next Fest began on February 24).",
     {"net-04": ["fixed a nasty desync in the boss fight this morning"], "demo-01": ["Feb 24 - Mar 3"]}),
    ("temp-03", "temporal-reasoning", "Which came first, the Global Game Jam or the Unity 6 upgrade?",
     "The Global Game Jam (January 24-26, 2025); the Unity 6 upgrade was in March 2025.",
     {"jam-01": ["Jan 24-26"], "u6-01": ["we're upgrading to Unity 6"]}),
    ("temp-04", "temporal-reasoning", "How long after the first external playtest was the publishing deal signed?",
     "About five months: the first playtest was in mid-November 2024 and the Northlight deal was signed on April 18, "
     "2025.", {"playtest-01": ["first external playtest done!"], "team-04": ["we signed with Northlight Publishing last Friday"]}),
    ("temp-05", "temporal-reasoning", "How many days after the Next Fest demo went live was the pitch to Northlight?",
     "31 days (the demo went live on February 24, 2025; the pitch was on Thursday, March 27).",
     {"demo-02": ["next fest started yesterday"], "publisher-01": ["pitch with Northlight Publishing on Thursday"]}),
    ("temp-06", "temporal-reasoning",
     "How long had Priya been the user's manager when the user was promoted to lead gameplay programmer?",
     "About six months (she started on December 9, 2024; the promotion came in June 2025).",
     {"team-02": ["She starts Monday the 9th"], "team-05": ["promoted me to lead gameplay programmer"]}),
]


if __name__ == "__main__":
    write(OUT, SESSIONS, questions(SESSIONS, QUESTIONS, name="heldout6", seed=SEED, question_date=QUESTION_DATE,
                                   others=OTHERS))
