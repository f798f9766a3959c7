import Foundation
import Testing

/// The CLI bad-input table: malformed calls of every subcommand, each of
/// which must give exactly one clear error line (naming the option or key,
/// the value and what is allowed) and a non-zero exit status, print nothing
/// on stdout, show no crash or stack trace, and write nothing.
@Suite struct BadInputTableTests {
    /// The files the calls name, in a fresh folder the calls run in.
    static func fixtures() throws -> URL {
        let dir = try CLI.temporaryFolder()
        let files: [(String, Data)] = [
            ("badkey.json", Data(#"{"paddleSped": 4}"#.utf8)),
            ("range.json", Data(#"{"maxScore": 1000}"#.utf8)),
            ("malformed.json", Data(#"{"maxScore": 3,,}"#.utf8)),
            ("type.json", Data(#"{"maxScore": "ten"}"#.utf8)),
            ("array.json", Data("[1,2]".utf8)),
            ("empty.json", Data()),
            ("binary.json", Data([0xFF, 0xFE])),
            ("brows.json", Data(#"{"brickRows": 99}"#.utf8)),
            ("sigma.json", Data(#"{"sigma": 50}"#.utf8)),
            ("trainer.json", Data(#"{"trainer": "sgd"}"#.utf8)),
            ("iter.json", Data(#"{"iterations": 0}"#.utf8)),
            ("pop.json", Data(#"{"population": 7}"#.utf8)),
            ("tpreset.json", Data(#"{"preset": "nope"}"#.utf8)),
            ("tgame.json", Data(#"{"game": "chess"}"#.utf8)),
            ("tkey.json", Data(#"{"unknownTrainKey": 1}"#.utf8)),
            ("tvar-type.json", Data(#"{"preset": "smoke", "variants": 3}"#.utf8)),
            ("tvar-noset.json", Data(#"{"preset": "smoke", "variants": {"visible": true}}"#.utf8)),
            ("tvar-key.json", Data(#"{"preset": "smoke", "variants": {"set": "train", "sett": 1}}"#.utf8)),
            ("tvar-set.json", Data(#"{"preset": "smoke", "variants": {"set": "nope"}}"#.utf8)),
            ("tvar-visible.json", Data(#"{"preset": "smoke", "variants": {"set": "train", "visible": "yes"}}"#.utf8)),
            ("tvar-file.json", Data(#"{"preset": "smoke", "variants": {"set": "train", "file": "no-such-variants.json"}}"#.utf8)),
            ("tvar-bad.json", Data(#"{"preset": "smoke", "variants": {"set": "train", "file": "range.json"}}"#.utf8)),
            ("tiny.json", Data(#"{ "game": "pong", "preset": "fast", "seed": 9, "scenarios": [ { "name": "gap", "a": "tracker:noise=2", "b": "random", "games": 2 } ] }"#.utf8)),
            ("noscen.json", Data(#"{ "game": "pong", "scenarios": [] }"#.utf8)),
            ("badagent-scen.json", Data(#"{ "game": "pong", "preset": "fast", "seed": 9, "scenarios": [ { "name": "gap", "a": "robot", "b": "random", "games": 2 } ] }"#.utf8)),
            ("req.json", Data(#"{"format": "es-request"}"#.utf8)),
            ("corrupt-policy.json", Data(#"{ "format": "linear-policy""#.utf8)),
            ("matches.jsonl", Data("not json\n".utf8)),
            ("notshard/run.json", Data("{}\n".utf8)),
        ]
        for (name, data) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        return dir
    }

    /// Each call and the fragments its one error line must hold.
    static let table: [([String], [String])] = [
        // train: the training config file and the options that override it
        (["train", "--config", "missing.json"], ["cannot read training config missing.json", "no such file"]),
        (["train", "--config", "malformed.json"], ["malformed.json: malformed JSON at line 1, column 16"]),
        (["train", "--config", "sigma.json"], ["sigma.json: \"sigma\" = 50 is out of range; allowed: 0.0001 ... 10"]),
        (["train", "--config", "trainer.json"], ["\"trainer\" = \"sgd\" is out of range; allowed: es, reinforce"]),
        (["train", "--config", "iter.json"], ["\"iterations\" = 0 is out of range; allowed: 1 ... 1000000"]),
        (["train", "--config", "pop.json"], ["\"population\" = 7 must be even"]),
        (["train", "--config", "tpreset.json"], ["unknown train preset \"nope\"; presets are: default, smoke"]),
        (["train", "--config", "tgame.json"], ["\"game\" = \"chess\" is out of range; allowed: pong, breakout"]),
        (["train", "--config", "tkey.json"], ["unknown key \"unknownTrainKey\"; valid keys are: preset"]),
        (["train", "--config", "tvar-type.json"], ["tvar-type.json: \"variants\" must be null or an object {\"set\": name, \"file\": path or null, \"visible\": true or false}, found a number"]),
        (["train", "--config", "tvar-noset.json"], ["\"variants\" needs \"set\": the name of a variant set"]),
        (["train", "--config", "tvar-key.json"], ["unknown key \"variants.sett\"; valid keys are: variants.set, variants.file, variants.visible"]),
        (["train", "--config", "tvar-set.json"], ["\"variants.set\" = \"nope\" is out of range; allowed: train, near, far (the sets of Configs/variants/pong.json (shipped))"]),
        (["train", "--config", "tvar-visible.json"], ["\"variants.visible\" must be true or false, found a string"]),
        (["train", "--config", "tvar-file.json"], ["\"variants.file\" = \"no-such-variants.json\" cannot be read"]),
        (["train", "--config", "tvar-bad.json"], ["range.json: unknown key \"maxScore\""]),
        (["train", "--config", "array.json"], ["array.json: a config must be a JSON object"]),
        (["train", "--config", "empty.json"], ["empty.json: malformed JSON at line 1, column 1"]),
        (["train", "--config", "binary.json"], ["training config binary.json is not UTF-8 text"]),
        (["train", "--iterations", "0"], ["\"iterations\" = 0 is out of range; allowed: 1 ... 1000000"]),
        (["train", "--iterations=-3"], ["\"iterations\" = -3 is out of range; allowed: 1 ... 1000000"]),
        (["train", "--iterations", "abc"], ["The value 'abc' is invalid for '--iterations <iterations>'"]),
        (["train", "--population", "7"], ["\"population\" = 7 must be even"]),
        (["train", "--population", "0"], ["\"population\" = 0 is out of range; allowed: 2 ... 4096"]),
        (["train", "--sigma", "50"], ["\"sigma\" = 50.0 is out of range; allowed: 0.0001 ... 10"]),
        (["train", "--sigma=-1"], ["\"sigma\" = -1.0 is out of range; allowed: 0.0001 ... 10"]),
        (["train", "--sigma", "nan"], ["\"sigma\" = nan is out of range; allowed: 0.0001 ... 10"]),
        (["train", "--learning-rate", "0"], ["\"learningRate\" = 0.0 is out of range; allowed: 1e-05 ... 1"]),
        (["train", "--learning-rate", "9"], ["\"learningRate\" = 9.0 is out of range; allowed: 1e-05 ... 1"]),
        (["train", "--episode-steps", "0"], ["\"episodeSteps\" = 0 is out of range; allowed: 10 ... 1000000"]),
        (["train", "--trainer", "sgd"], ["\"trainer\" = \"sgd\" is out of range; allowed: es, reinforce"]),
        (["train", "--opponent", "robot"], ["\"opponent\" = \"robot\": unknown agent \"robot\"; agents are: random, tracker, constant, linear, process"]),
        (["train", "--opponent", "tracker:speed=9"], ["speed=9 is invalid; allowed: a number in 0.05 ... 1.0"]),
        (["train", "--eval-opponent", "robot"], ["\"evalOpponent\" = \"robot\": unknown agent \"robot\""]),
        (["train", "--eval-interval", "0"], ["\"evalInterval\" = 0 is out of range; allowed: 1 ... 1000000"]),
        (["train", "--eval-episodes", "0"], ["\"evalEpisodes\" = 0 is out of range; allowed: 1 ... 10000"]),
        (["train", "--eval-steps", "0"], ["\"evalSteps\" = 0 is out of range; allowed: 10 ... 10000000"]),
        (["train", "--max-env-steps=-1"], ["\"maxEnvSteps\" = -1 is out of range; allowed: 0 ... 1000000000000"]),
        (["train", "--seed=-1"], ["The value '-1' is invalid for '--seed <seed>'"]),
        (["train", "--seed", "18446744073709551616"], ["The value '18446744073709551616' is invalid for '--seed <seed>'"]),
        (["train", "--workers", "257"], ["--workers 257 is out of range; allowed: 0 ... 256"]),
        (["train", "--workers=-1"], ["--workers -1 is out of range; allowed: 0 ... 256"]),
        (["train", "--resume", "nowhere"], ["cannot resume", "nowhere: no such folder"]),
        (["train", "--resume", ""], ["--resume '' is empty; allowed: the results folder of a training run"]),
        (["train", "--resume", "x", "--out", "y"], ["give either --resume DIR or --out DIR, not both"]),
        (["train", "--resume", "notshard"], ["cannot read training config of the run to resume", "notshard/config.json"]),
        (["train", "--resume", "x", "--sigma", "0.5"], ["--sigma cannot be changed when resuming"]),
        (["train", "--out", ""], ["--out '' is empty; allowed: a folder path"]),
        (["train", "--overwrite"], ["--overwrite needs --out DIR"]),
        (["train", "--out", "notshard"], ["results folder", "notshard is not empty and holds no gym-train results"]),
        (["train", "--stop-after", "0"], ["--stop-after 0 is out of range; allowed: 1 or more"]),
        (["train", "--hold-after", "0"], ["--hold-after 0 is out of range; allowed: 1 or more"]),
        (["train", "--bogus"], ["Unknown option '--bogus'"]),
        (["train", "--remote-members", "--trainer", "reinforce"], ["--remote-members: trainer \"reinforce\" does not play a population"]),
        (["train", "--iterations"], ["Missing value for '--iterations <iterations>'"]),
        // es-members: a piece of remote ES training
        (["es-members", "--request", "missing.json", "--first", "0", "--end", "2", "--out", "o.json"], ["cannot read es-request missing.json"]),
        (["es-members", "--request", "malformed.json", "--first", "0", "--end", "2", "--out", "o.json"], ["malformed.json: malformed JSON at line 1, column 16"]),
        (["es-members", "--request", "req.json", "--first", "0", "--end", "2", "--out", "o.json"], ["req.json is not an es-request file"]),
        (["es-members", "--first", "0", "--end", "2", "--out", "o.json"], ["Missing expected argument '--request <request>'"]),
        (["es-members", "--request", "req.json", "--first", "x", "--end", "2", "--out", "o.json"], ["The value 'x' is invalid for '--first <first>'"]),
        (["es-members", "--request", "req.json", "--first", "0", "--end", "2", "--out", ""], ["--out '' is empty; allowed: the path of the es-members file"]),
        // eval: agents, rules, counts, shards, results folder
        (["eval", "--agent", "nobody"], ["unknown agent \"nobody\"; agents are: random, tracker, constant, linear, process"]),
        (["eval", "--agent", ""], ["empty agent spec; agents are: random, tracker, constant, linear, process"]),
        (["eval", "--agent", "tracker:noise=9"], ["agent tracker: noise=9 is invalid; allowed: a number in 0.0 ... 4.0"]),
        (["eval", "--agent", "tracker:reaction=-1"], ["agent tracker: reaction=-1 is invalid; allowed: an integer in 0 ... 30"]),
        (["eval", "--agent", "tracker:bogus=1"], ["agent tracker: unknown parameter \"bogus\"; allowed: reaction, noise, speed, predict, aim, name"]),
        (["eval", "--agent", "linear:missing.json"], ["agent linear: cannot read checkpoint missing.json"]),
        (["eval", "--agent", "linear:corrupt-policy.json"], ["checkpoint corrupt-policy.json is corrupt"]),
        (["eval", "--agent", "constant:action=7"], ["agent constant: action=7 is invalid; allowed: an integer in 0 ... 4"]),
        (["eval", "--agent", "random:p=2"], ["agent random: unknown parameter \"p\"; allowed: name"]),
        (["eval", "--opponent", "nobody"], ["unknown agent \"nobody\""]),
        (["eval", "--opponent", "tracker:speed=0"], ["speed=0 is invalid; allowed: a number in 0.05 ... 1.0"]),
        (["eval", "--game", "chess"], ["The value 'chess' is invalid for '--game <game>'", "'pong' and 'breakout'"]),
        (["eval", "--config", "missing.json"], ["cannot read config file missing.json"]),
        (["eval", "--config", "malformed.json"], ["malformed.json: malformed JSON at line 1, column 16"]),
        (["eval", "--config", "badkey.json"], ["badkey.json: unknown key \"paddleSped\"; valid keys are: preset"]),
        (["eval", "--config", "range.json"], ["range.json: \"maxScore\" = 1000 is out of range; allowed: 1 ... 99"]),
        (["eval", "--config", "type.json"], ["type.json: \"maxScore\" must be an integer, found a string"]),
        (["eval", "--config", "array.json"], ["array.json: a config must be a JSON object"]),
        (["eval", "--config", "empty.json"], ["empty.json: malformed JSON at line 1, column 1"]),
        (["eval", "--config", "binary.json"], ["config file binary.json is not UTF-8 text"]),
        (["eval", "--preset", "turbo"], ["unknown pong preset \"turbo\"; presets are: classic, touch, fast, ale"]),
        (["eval", "--game", "breakout", "--preset", "fast"], ["unknown breakout preset \"fast\"; presets are: classic, atari"]),
        (["eval", "--game", "breakout", "--config", "brows.json"], ["brows.json: \"brickRows\" = 99 is out of range; allowed: 1 ... 16"]),
        (["eval", "--game", "breakout", "--agent", "constant:action=4"], ["Breakout actions are 0 ... 3"]),
        (["eval", "--config", "x.json", "--preset", "classic"], ["give either --config or --preset, not both"]),
        (["eval", "--episodes", "0"], ["--episodes 0 is out of range; allowed: 1 ... 10000000"]),
        (["eval", "--episodes", "10000001"], ["--episodes 10000001 is out of range; allowed: 1 ... 10000000"]),
        (["eval", "--episodes", "many"], ["The value 'many' is invalid for '--episodes <episodes>'"]),
        (["eval", "--seed", "abc"], ["The value 'abc' is invalid for '--seed <seed>'"]),
        (["eval", "--workers", "257"], ["--workers 257 is out of range; allowed: 0 ... 256"]),
        (["eval", "--shard", "0/3"], ["--shard 0/3 is invalid; allowed: K/N with 1 ≤ K ≤ N"]),
        (["eval", "--shard", "4/3"], ["--shard 4/3 is invalid; allowed: K/N with 1 ≤ K ≤ N"]),
        (["eval", "--shard", "3"], ["--shard 3 is invalid; allowed: K/N"]),
        (["eval", "--shard", "a/b"], ["--shard a/b is invalid; allowed: K/N"]),
        (["eval", "--shard", "1/0"], ["--shard 1/0 is invalid; allowed: K/N"]),
        (["eval", "--out", ""], ["--out '' is empty; allowed: a folder path"]),
        (["eval", "--overwrite"], ["--overwrite needs --out DIR"]),
        (["eval", "--out", "notshard"], ["notshard is not empty and holds no gym-train results"]),
        (["eval", "--out", "notshard", "--overwrite"], ["notshard is not empty and holds no gym-train results", "--overwrite replaces only a gym-train results folder"]),
        (["eval", "--out", "tiny.json"], ["tiny.json exists and is not a folder"]),
        // tournament: formats, agents, rating and SPRT parameters
        (["tournament", "--agent", "random"], ["round-robin needs at least two --agent options (got 1)"]),
        (["tournament", "--agent", "random", "--agent", "robot"], ["unknown agent \"robot\""]),
        (["tournament", "--agent", "random", "--agent", "random"], ["two agents are named \"random\""]),
        (["tournament", "--agent", "random", "--agent", "tracker", "--pairs", "0"], ["--pairs 0 is out of range; allowed: 1 ... 1000000"]),
        (["tournament", "--agent", "random", "--agent", "tracker", "--pairs", "x"], ["The value 'x' is invalid for '--pairs <pairs>'"]),
        (["tournament", "--agent", "random", "--agent", "tracker", "--bootstrap=-1"], ["--bootstrap -1 is out of range; allowed: 1 ... 100000"]),
        (["tournament", "--agent", "random", "--agent", "tracker", "--level", "2"], ["--level 2.0 is out of range; allowed: between 0 and 1 (exclusive)"]),
        (["tournament", "--agent", "random", "--agent", "tracker", "--mode", "knockout"], ["The value 'knockout' is invalid for '--mode <mode>'", "'round-robin', 'gauntlet' or 'sprt'"]),
        (["tournament", "--mode", "sprt", "--candidate", "tracker"], ["--mode sprt needs --candidate SPEC and --baseline SPEC"]),
        (["tournament", "--mode", "sprt", "--candidate", "tracker", "--baseline", "random", "--alpha", "0"], ["--alpha 0.0 is out of range; allowed: between 0 and 0.5 (exclusive)"]),
        (["tournament", "--mode", "sprt", "--candidate", "tracker", "--baseline", "random", "--beta", "1"], ["--beta 1.0 is out of range; allowed: between 0 and 0.5 (exclusive)"]),
        (["tournament", "--mode", "sprt", "--candidate", "tracker", "--baseline", "random", "--elo0", "10", "--elo1", "5"], ["--elo0 10.0 and --elo1 5.0 are invalid; allowed: -1000 ≤ elo0 < elo1 ≤ 1000"]),
        (["tournament", "--mode", "sprt", "--candidate", "tracker", "--baseline", "random", "--max-pairs", "0"], ["--max-pairs 0 is out of range; allowed: 1 ... 10000000"]),
        (["tournament", "--mode", "gauntlet", "--agent", "random"], ["--mode gauntlet needs --candidate SPEC"]),
        (["tournament", "--game", "breakout", "--mode", "sprt", "--candidate", "tracker", "--baseline", "random"], ["--mode sprt is for --game pong"]),
        (["tournament", "--game", "breakout", "--agent", "random", "--agent", "constant:action=4"], ["agent \"constant:action=4\": Breakout actions are 0 ... 3"]),
        (["tournament", "--agent", "random", "--agent", "tracker", "--out", ""], ["--out '' is empty; allowed: a folder path"]),
        (["tournament", "--agent", "random", "--agent", "tracker", "--shard", "9/2"], ["--shard 9/2 is invalid; allowed: K/N"]),
        (["tournament", "--agent", "random", "--agent", "tracker", "--episodes", "0"], ["--episodes 0 is out of range; allowed: 1 ... 10000000"]),
        // balance record / check
        (["balance", "record", "--scenarios", "missing.json"], ["cannot read scenario file missing.json"]),
        (["balance", "record", "--scenarios", "malformed.json"], ["malformed.json: malformed JSON at line 1, column 16"]),
        (["balance", "record", "--scenarios", "noscen.json"], ["noscen.json: \"seed\" must be an unsigned 64-bit integer"]),
        (["balance", "record", "--scenarios", "badagent-scen.json"], ["badagent-scen.json scenarios[0]: \"a\": unknown agent \"robot\""]),
        (["balance", "record", "--scenarios", "tiny.json", "--out", ""], ["--out '' is empty; allowed: a folder path"]),
        (["balance", "record", "--scenarios", "tiny.json", "--out", "o", "--baselines", "b"], ["give either --baselines DIR or --out DIR, not both"]),
        (["balance", "record", "--scenarios", "tiny.json", "--overwrite"], ["--overwrite needs --out DIR"]),
        (["balance", "record", "--scenarios", "tiny.json", "--scenarios", "tiny.json", "--shard", "1/2"], ["--shard needs exactly one --scenarios FILE (got 2 scenario files)"]),
        (["balance", "record", "--scenarios", "tiny.json", "--workers", "999"], ["--workers 999 is out of range; allowed: 0 ... 256"]),
        (["balance", "record", "--scenarios", "tiny.json", "--baselines", "."], ["the baseline ./tiny.json would overwrite the scenario file tiny.json"]),
        (["balance", "record", "--scenarios", "tiny.json", "--out", "notshard"], ["notshard is not empty and holds no gym-train results"]),
        (["balance", "check", "--scenarios", "tiny.json", "--baselines", "nowhere"], ["no baseline at nowhere/tiny.json; record one with `gym-train balance record --scenarios tiny.json`"]),
        (["balance", "check", "--scenarios", "tiny.json", "--out", "o"], ["--out is for --shard K/N"]),
        (["balance", "check", "--scenarios", "tiny.json", "--config", "x.json", "--preset", "classic"], ["give either --config or --preset, not both"]),
        (["balance", "check", "--scenarios", "tiny.json", "--shard", "5"], ["--shard 5 is invalid; allowed: K/N"]),
        (["balance", "check", "--scenarios", "missing.json"], ["cannot read scenario file missing.json"]),
        (["balance", "check", "--scenarios", "tiny.json", "--shard", "1/2", "--out", ""], ["--out '' is empty; allowed: a folder path"]),
        (["balance", "bogus"], ["Unexpected argument 'bogus'"]),
        // sweep
        (["sweep", "--scenarios", "tiny.json"], ["--grid is given 0 times; allowed: 1 or 2 (KEY=V1,V2,...)"]),
        (["sweep", "--scenarios", "tiny.json", "--grid", "paddleWidth"], ["--grid paddleWidth is invalid; allowed: KEY=V1,V2,..."]),
        (["sweep", "--scenarios", "tiny.json", "--grid", "paddleWidth="], ["--grid paddleWidth= is invalid; allowed: KEY=V1,V2,..."]),
        (["sweep", "--scenarios", "tiny.json", "--grid", "paddleWidth=40,40"], ["--grid paddleWidth=40,40 is invalid: values must be non-empty and distinct"]),
        (["sweep", "--scenarios", "tiny.json", "--grid", "bogusKey=1,2"], ["unknown key \"bogusKey\"; valid keys are: preset"]),
        (["sweep", "--scenarios", "tiny.json", "--grid", "paddleWidth=abc"], ["--grid paddleWidth=abc: \"paddleWidth\" must be a number, found a string"]),
        (["sweep", "--scenarios", "tiny.json", "--grid", "paddleWidth=99999"], ["--grid paddleWidth=99999: \"paddleWidth\" = 99999 is out of range; allowed: 8 ... 256"]),
        (["sweep", "--scenarios", "tiny.json", "--grid", "paddleWidth=40", "--grid", "paddleWidth=56"], ["--grid names \"paddleWidth\" twice; allowed: two different keys"]),
        (["sweep", "--scenarios", "tiny.json", "--grid", "a=1", "--grid", "b=2", "--grid", "c=3"], ["--grid is given 3 times; allowed: 1 or 2"]),
        (["sweep", "--scenarios", "missing.json", "--grid", "paddleWidth=40"], ["cannot read scenario file missing.json"]),
        (["sweep", "--grid", "paddleWidth=40"], ["Missing expected argument '--scenarios <scenarios>'"]),
        (["sweep", "--scenarios", "tiny.json", "--grid", "paddleWidth=40", "--out", ""], ["--out '' is empty; allowed: a folder path"]),
        (["sweep", "--scenarios", "tiny.json", "--grid", "paddleWidth=40", "--out", "notshard"], ["notshard is not empty and holds no gym-train results"]),
        // robustness
        (["robustness", "--episodes", "1"], ["--agent is missing; give at least one agent spec"]),
        (["robustness", "--agent", "tracker", "--draws", "0"], ["--draws 0 is out of range; allowed: 1 ... 1000"]),
        (["robustness", "--agent", "tracker", "--bootstrap", "0"], ["--bootstrap 0 is out of range; allowed: 1 ... 100000"]),
        (["robustness", "--agent", "tracker", "--variants", "middle"], ["Configs/variants/pong.json (shipped): \"sets\" has no set \"middle\"; sets are: train, near, far"]),
        (["robustness", "--agent", "tracker", "--variants-file", "missing.json"], ["cannot read variant file missing.json"]),
        (["robustness", "--game", "breakout", "--agent", "tracker", "--opponent", "random"], ["--opponent is for Pong; Breakout's agent plays alone"]),
        (["eval", "--agent", "tracker", "--variants", "middle"], ["--variants middle: Configs/variants/pong.json (shipped): \"sets\" has no set \"middle\"; sets are: train, near, far"]),
        (["eval", "--agent", "tracker", "--variants-file", "tiny.json"], ["--variants-file needs --variants SET"]),
        (["eval", "--game", "breakout", "--agent", "tracker", "--variants", "near", "--variants-file", "missing.json"], ["cannot read variant file missing.json"]),
        (["tournament", "--mode", "sprt", "--candidate", "tracker", "--baseline", "random", "--variants", "middle"], ["--variants middle: Configs/variants/pong.json (shipped): \"sets\" has no set \"middle\"; sets are: train, near, far"]),
        (["config", "--draw", "middle"], ["has no set \"middle\"; sets are: train, near, far"]),
        (["config", "--draw", "train", "--episodes", "0"], ["--episodes 0 is out of range; allowed: 1 ... 100000"]),
        (["config", "--variants", "missing.json"], ["cannot read variant file missing.json"]),
        // merge
        (["merge"], ["merge needs at least one shard folder"]),
        (["merge", "nowhere"], ["cannot read shard file", "nowhere/run.json"]),
        (["merge", "notshard"], ["notshard/run.json is not a shard's run.json: no \"shardIndex\""]),
        (["merge", "tiny.json"], ["cannot read shard file", "tiny.json/run.json"]),
        (["merge", "--out", "", "notshard"], ["--out '' is empty; allowed: a folder path"]),
        // render
        (["render", "--replay", "missing.jsonl"], ["cannot read match file missing.jsonl"]),
        (["render", "--replay", "matches.jsonl"], ["matches.jsonl:0: malformed JSON at line 1, column 1"]),
        (["render", "--replay", "{bad"], ["--replay: malformed JSON at line 1, column 2"]),
        (["render", "--episode=-1"], ["--episode -1 is out of range; allowed: 0 or more"]),
        (["render", "--every", "0"], ["--every 0 is out of range; allowed: 1 ... 1000"]),
        (["render", "--scale", "0"], ["--scale 0.0 is out of range; allowed: 0.1 ... 4"]),
        (["render", "--scale", "100"], ["--scale 100.0 is out of range; allowed: 0.1 ... 4"]),
        (["render", "--max-steps=-5"], ["--max-steps -5 is out of range; allowed: 0 ... 1000000"]),
        (["render", "--fps", "0"], ["--fps 0.0 is out of range; allowed: (0, 10000]"]),
        (["render", "--agent", "robot"], ["unknown agent \"robot\""]),
        (["render", "--agent", "tracker:noise=-1"], ["noise=-1 is invalid; allowed: a number in 0.0 ... 4.0"]),
        (["render", "--index=-1", "--replay", "matches.jsonl"], ["--index -1 is out of range; allowed: 0 or more"]),
        (["render", "--replay", "matches.jsonl", "--preset", "classic"], ["--replay takes the config from the record; drop --config/--preset"]),
        (["render", "--out", ""], ["--out '' is empty; allowed: a folder path"]),
        (["render", "--out", "notshard"], ["notshard is not empty and holds no gym-train results"]),
        (["render", "--preset", "turbo"], ["unknown pong preset \"turbo\""]),
        (["render", "--game", "breakout", "--config", "range.json"], ["range.json: unknown key \"maxScore\""]),
        // play (checked before a terminal is needed)
        (["play", "--fps", "0"], ["--fps 0.0 is out of range; allowed: (0, 1000]"]),
        (["play", "--fps", "5000"], ["--fps 5000.0 is out of range; allowed: (0, 1000]"]),
        (["play", "--hold-frames", "0"], ["--hold-frames 0 is out of range; allowed: 1 ... 600"]),
        (["play", "--hold-frames", "601"], ["--hold-frames 601 is out of range; allowed: 1 ... 600"]),
        (["play", "--name", ""], ["--name \"\" is invalid; allowed: letters, digits, spaces, - and _ (not empty)"]),
        (["play", "--name", "a;b"], ["--name \"a;b\" is invalid; allowed: letters, digits, spaces, - and _"]),
        (["play", "--resume", "x", "--seed", "3"], ["--resume takes the game, config, opponent and seed from the save file; drop --seed"]),
        (["play", "--resume", "x", "--out", "o", "--overwrite"], ["give either --resume FILE or --overwrite, not both"]),
        (["play", "--game", "chess"], ["The value 'chess' is invalid for '--game <game>'"]),
        (["play", "--out", ""], ["--out '' is empty; allowed: a folder path"]),
        (["play", "--config", "x.json", "--preset", "classic"], ["give either --config or --preset, not both"]),
        (["play", "--opponent", "robot"], ["play needs a terminal: standard input and output must be a TTY"]),
        // bench
        (["bench", "--game", "chess"], ["The value 'chess' is invalid for '--game <game>'"]),
        (["bench", "--envs", "0"], ["--envs 0 is out of range; allowed: 1 ... 1000000"]),
        (["bench", "--envs=-1"], ["--envs -1 is out of range; allowed: 1 ... 1000000"]),
        (["bench", "--seconds", "0"], ["--seconds 0.0 is out of range; allowed: (0, 600]"]),
        (["bench", "--seconds=-1"], ["--seconds -1.0 is out of range; allowed: (0, 600]"]),
        (["bench", "--sticky", "2"], ["--sticky 2.0 is out of range; allowed: 0 ... 1"]),
        (["bench", "--game", "pong", "--variants", "middle", "--seconds", "0.01"],
         ["--variants middle: Configs/variants/pong.json: \"sets\" has no set \"middle\"; sets are: train, near, far"]),
        (["bench", "--frame-skip", "0"], ["--frame-skip 0 is not a list of frame skips; allowed: comma-separated integers 1 ... 16"]),
        (["bench", "--ticks", "0"], ["--ticks 0 is out of range; allowed: 1 ... 1000000"]),
        (["bench", "--chunk", "0"], ["--chunk 0 is out of range; allowed: 1 ... 1000000"]),
        (["bench", "--repeats", "0"], ["--repeats 0 is out of range; allowed: 1 ... 100"]),
        (["bench", "--workers", "999"], ["--workers 999 is out of range; allowed: 0 ... 256"]),
        (["bench", "--preset", "classic"], ["--preset needs --game (presets are per game)"]),
        (["bench", "--out", ""], ["--out '' is empty; allowed: the path of the JSON report"]),
        // bench-policy
        (["bench-policy", "--inputs", "0"], ["--inputs 0 is out of range; allowed: 1 ... 4096"]),
        (["bench-policy", "--outputs", "0"], ["--outputs 0 is out of range; allowed: 1 ... 256"]),
        (["bench-policy", "--outputs", "999"], ["--outputs 999 is out of range; allowed: 1 ... 256"]),
        (["bench-policy", "--batches", "0"], ["--batches 0 must list sizes in 1 ... 65536, comma separated"]),
        (["bench-policy", "--batches", "a,b"], ["--batches a,b must list sizes in 1 ... 65536, comma separated"]),
        (["bench-policy", "--seconds", "0"], ["--seconds 0.0 is out of range; allowed: (0, 60]"]),
        // config
        (["config", "--game", "chess"], ["The value 'chess' is invalid for '--game <game>'"]),
        (["config", "--preset", "turbo"], ["unknown pong preset \"turbo\"; presets are: classic, touch, fast, ale"]),
        (["config", "--game", "breakout", "--preset", "turbo"], ["unknown breakout preset \"turbo\"; presets are: classic, atari, ale"]),
        (["config", "--config", "missing.json"], ["cannot read config file missing.json"]),
        (["config", "--config", "badkey.json"], ["badkey.json: unknown key \"paddleSped\""]),
        (["config", "--config", "malformed.json"], ["malformed.json: malformed JSON at line 1, column 16"]),
        (["config", "--config", "range.json"], ["range.json: \"maxScore\" = 1000 is out of range; allowed: 1 ... 99"]),
        (["config", "--train", "--config", "sigma.json"], ["sigma.json: \"sigma\" = 50 is out of range; allowed: 0.0001 ... 10"]),
        (["config", "--train", "--config", "tkey.json"], ["tkey.json: unknown key \"unknownTrainKey\""]),
        // the root command
        (["nosuchcommand"], ["Unexpected argument 'nosuchcommand'"]),
        (["--bogus"], ["Unknown option '--bogus'"]),
    ]

    @Test func everyMalformedCallGivesOneClearLineAndANonZeroExit() throws {
        #expect(Self.table.count >= 200)
        let dir = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try FileManager.default.subpathsOfDirectory(atPath: dir.path).sorted()
        let results = LockedResults(count: Self.table.count)
        // Two at a time: each call is one short process.
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            for k in stride(from: lane, to: Self.table.count, by: 2) {
                results.set(k, try? CLI.run(Self.table[k].0, in: dir))
            }
        }
        for ((arguments, fragments), output) in zip(Self.table, results.values) {
            guard let r = output else {
                Issue.record("\(arguments): did not run")
                continue
            }
            let lines = r.stderr.split(separator: "\n")
            let errors = lines.filter { $0.hasPrefix("Error: ") }
            // ArgumentParser follows a usage error with the usage and a pointer to --help; nothing else may appear.
            let others = lines.filter {
                !$0.hasPrefix("Error: ") && !$0.hasPrefix("Usage: ") && !$0.hasPrefix("Help: ") && !$0.hasPrefix("  See '")
            }
            #expect(r.status > 0, "\(arguments): exit status \(r.status)")
            #expect(errors.count == 1 && others.isEmpty, "\(arguments): \(r.stderr)")
            for fragment in fragments {
                #expect(errors.first?.contains(fragment) == true, "\(arguments): expected \"\(fragment)\" in \(r.stderr)")
            }
            #expect(r.stdout.isEmpty, "\(arguments): printed \(r.stdout)")
            #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("Stack dump") && !r.stderr.contains("stack trace"),
                    "\(arguments)")
        }
        // No call wrote anything (no results folder, no baseline, no report).
        let after = try FileManager.default.subpathsOfDirectory(atPath: dir.path).sorted()
        #expect(after == before, "written: \(Set(after).subtracting(before).sorted())")
    }
}
