"""Japanese (日本語).

Board-game terms: マスタービルダー master builder, 労働者 worker, 職人 craftsman, 資源カード
resource card, 特権カード privilege card, イベント event, 勝利点 VP, ゴールド gold, スタート
プレイヤー start player, パス pass, 羊毛工場 wool mill, 王宮 King's Court, 大聖堂 cathedral.
For The Builders the terms of the Japanese summary in seeds/004_*.txt: 建物, 設備 (machine),
労働者, 職人, アクションポイント, コイン, 建築の着手, 労働者の雇用, 労働者の派遣, コインの獲得.

Keys of CATALOG are the English source texts; a translation keeps exactly the same
``{placeholders}``.  Run ``.venv/bin/python tools/i18n_missing.py`` for the strings still missing.
"""

# Translations are data: a long one stays on one line.
# ruff: noqa: E501

from __future__ import annotations

CATALOG: dict[str, str] = {
    "{name} becomes the start player": "{name}がスタートプレイヤーになります",
    "The game is over": "ゲーム終了",
    "Round {n} begins": "第{n}ラウンド開始",
    "Workers in the wool mill: {list}": "羊毛工場の労働者：{list}",
    "Only an Apprentice is dealt now, not {card}": "いま配るのは見習いだけです（{card}ではありません）",
    "That card belongs to The Builders, not to this game": "このカードは『ザ・ビルダーズ』のもので、このゲームのものではありません",
    "That card belongs to The Pillars of the Earth, not to this game": "このカードは『ピラーズ・オブ・ジ・アース』のもので、このゲームのものではありません",
    "The table is dealing {what}, not {card}": "いま配るのは{what}です（{card}ではありません）",
    "The table is revealing {what}, not {card}": "いまめくるのは「{what}」です（{card}ではありません）",
    "a building card": "建物カード",
    "a worker card": "労働者カード",
    "{card} comes out only in round 6": "{card}は第6ラウンドにしか出ません",
    "{card} has already been revealed": "{card}はすでにめくられています",
    "{card} is a craftsman of round {r}; this is round {n}": "{card}は第{r}ラウンドの職人です（いまは第{n}ラウンド）",
    "{card} is already in play": "{card}はすでに場に出ています",
    "{card} was shown, but no card is being revealed now": "{card}が見せられましたが、いまはカードをめくる場面ではありません",
    "17 VP reached: the round is completed, {n} more turns": "17勝利点に到達：このラウンドを終えるまで残り{n}手番",
    "Buildings (start: 1 AP) · deck: {n}": "建物（着工：1AP）・山札：{n}",
    "Buildings (start: 1 AP) · next: {card}": "建物（着工：1AP）・次：{card}",
    "Last round: {n} turns left": "最終ラウンド：残り{n}手番",
    "More →": "次へ →",
    "Sites {a}–{b} of {n} →": "建設中 {a}–{b}/{n} →",
    "Workers (recruit: 1 AP) · deck: {n}": "労働者（雇用：1AP）・山札：{n}",
    "Workers (recruit: 1 AP) · next: {card}": "労働者（雇用：1AP）・次：{card}",
    "buildings {b} · machines {m} · coins {c} ({coins}¤)": "建物{b}・機械{m}・コイン{c}（{coins}枚）",
    "Tap the code to make it smaller": "コードをタップで縮小",
    "Scan to log this play in BG Stats (tap to enlarge)": "スキャンしてBG Statsに記録（タップで拡大）",
    "{coins} coins · {vp} VP": "{coins}枚・{vp}点",
    "{vp}/{goal} VP · {coins} coins": "{vp}/{goal}勝利点・{coins}コイン",
    "+1 metal": "+1金属",
    # -- general ----------------------------------------------------------------------------------
    "New game": "新しいゲーム",
    "Resume": "再開",
    "History": "履歴",
    "Settings": "設定",
    "Language": "言語",
    "Players": "プレイヤー",
    "Player {n}": "プレイヤー{n}",
    "{n} players": "{n}人",
    "Add player": "プレイヤー追加",
    "Remove": "外す",
    "Name": "名前",
    "Colour": "色",
    "Red": "赤",
    "Blue": "青",
    "Yellow": "黄",
    "Green": "緑",
    "Seat {n}": "席{n}",
    "Start player": "スタートプレイヤー",
    "Start": "開始",
    "Start the game": "ゲーム開始",
    "Set-up": "準備",
    "Choose a game": "ゲームを選択",
    "Game": "ゲーム",
    "The Pillars of the Earth": "ピラーズ・オブ・ジ・アース",
    "The Builders: Middle Ages": "ザ・ビルダーズ：中世",
    "Solo": "ソロ",
    "Automa": "オートマ",
    "Options": "オプション",
    "Back": "戻る",
    "Undo": "取り消し",
    "Undo the last move?": "直前の手を取り消しますか？",
    "Nothing to undo": "取り消せる手はありません",
    "Draw": "引く",
    "Roll": "振る",
    "Pass": "パス",
    "Confirm": "確定",
    "Done": "完了",
    "Cancel": "キャンセル",
    "OK": "OK",
    "Yes": "はい",
    "No": "いいえ",
    "Next": "次へ",
    "Close": "閉じる",
    "Quit": "終了",
    "Save": "保存",
    "Delete": "削除",
    "Edit": "編集",
    "Help": "ヘルプ",
    "Rules": "ルール",
    "Are you sure?": "よろしいですか？",
    "Not allowed": "できません",
    "Tap to continue": "タップして続行",
    "Date": "日付",
    "Duration": "所要時間",
    "Camera": "カメラ",
    "Sound": "サウンド",
    "Brightness": "明るさ",
    "Scan": "スキャン",
    "Camera read: {card}": "カメラ認識：{card}",
    "Could not read the card": "カードを読み取れません",
    # -- rounds, turns, scores --------------------------------------------------------------------
    "Round {n}": "ラウンド{n}",
    "Round {n} of {total}": "ラウンド{n}/{total}",
    "Phase I": "フェイズ1",
    "Phase II": "フェイズ2",
    "Phase III": "フェイズ3",
    "Step {n}": "ステップ{n}",
    "{name}'s turn": "{name}の手番",
    "Cost {n}": "コスト{n}",
    "Free": "無料",
    "VP": "勝利点",
    "{n} VP": "{n}勝利点",
    "Gold": "ゴールド",
    "{n} gold": "{n}ゴールド",
    "pays {n} gold": "{n}ゴールド支払う",
    "Not enough gold": "ゴールドが足りません",
    "Score": "得点",
    "Scores": "得点",
    "Final scores": "最終得点",
    "Total": "合計",
    "Rank": "順位",
    "Winner": "勝者",
    "Winners": "勝者",
    "{name} wins!": "{name}の勝利！",
    "{names} share the win": "{names}が同点で勝利",
    "Shared win": "同点勝利",
    "Tie broken by gold": "同点のためゴールドで決定",
    "Tie broken by coins": "同点のためコインで決定",
    "Game over": "ゲーム終了",
    "{n} left": "残り{n}",
    # -- cards and decks --------------------------------------------------------------------------
    "Virtual deck": "仮想山札",
    "Virtual bag": "仮想の袋",
    "Deck": "山札",
    "Pool": "カードプール",
    "Reveal": "公開",
    "Draw a card": "カードを引く",
    "Tap the card the table revealed": "場で公開されたカードをタップ",
    "Take": "取る",
    "Keep": "残す",
    "Discard": "捨てる",
    "Event": "イベント",
    "Events": "イベント",
    "Privilege": "特権カード",
    "Privilege cards": "特権カード",
    "Resource cards": "資源カード",
    # -- The Pillars of the Earth -----------------------------------------------------------------
    "Workers": "労働者",
    "Not enough workers": "労働者が足りません",
    "Craftsman": "職人",
    "Craftsmen": "職人",
    "Capacity {n}": "使用回数{n}",
    "Used {n}/{max}": "使用{n}/{max}",
    "Resources": "資源",
    "Master builder": "マスタービルダー",
    "Master builders": "マスタービルダー",
    "Bag": "袋",
    "Drawn: {colour}": "引いた色：{colour}",
    "Redraw": "引き直し",
    "Place": "配置",
    "Placement cost {n}": "配置コスト{n}",
    "Protection": "保護",
    "Take a cube": "資源を1個取る",
    "Play": "使う",
    "Keep for later": "後で使う",
    "Lose a craftsman": "職人を1人失う",
    "+1 use this round": "このラウンド+1回",
    "Wool mill": "羊毛工場",
    "Income": "収入",
    "Market": "市場",
    "Buy": "購入",
    "Sell": "売却",
    "Quantity": "数量",
    "Tax": "税",
    "Tax {n}": "税{n}",
    "Die: {n}": "ダイス：{n}",
    "Exempt": "免税",
    "Cathedral": "大聖堂",
    "Convert": "変換",
    "Best conversion": "最適な変換",
    "Give back": "返却",
    "Keep at most 5 resources": "資源は最大5個まで",
    "Next start player": "次のスタートプレイヤー",
    "Supply": "供給",
    # -- The Builders: Middle Ages ----------------------------------------------------------------
    "Coins": "コイン",
    "{n} coins": "{n}コイン",
    "Not enough coins": "コインが足りません",
    "Action points": "アクションポイント",
    "AP": "AP",
    "{n} AP": "{n}AP",
    "End turn": "手番終了",
    "Buy an action (5 coins)": "アクション購入（5コイン）",
    "Start a construction": "建築の着手",
    "Recruit a worker": "労働者の雇用",
    "Send a worker": "労働者の派遣",
    "Take coins": "コインの獲得",
    "{ap} AP: {coins} coins": "{ap}AP：{coins}コイン",
    "Send to {site}": "{site}へ派遣",
    "Wage {n}": "賃金{n}",
    "Building": "建物",
    "Buildings": "建物",
    "Machine": "設備",
    "Machines": "設備",
    "Building row": "建物の列",
    "Worker row": "労働者の列",
    "Worker": "労働者",
    "Idle workers": "待機中の労働者",
    "Under construction": "建築中",
    "Finished": "完成",
    "Show the next worker": "次の労働者を表示",
    # -- kiosk: app, menus, history, set-up, end ----------------------------------------------------
    "Menu": "メニュー",
    "Continue": "続ける",
    "Previous": "前へ",
    "On": "オン",
    "Off": "オフ",
    "Cards": "カード",
    "Table deals": "場で配る",
    "Space": "スペース",
    "Settings not saved: {error}": "設定を保存できません：{error}",
    "Undone: {action}": "取り消しました：{action}",
    "The journal cannot be opened: {error}": "記録を開けません：{error}",
    "Journal: {path}": "記録：{path}",
    "No journal: the game could not be saved": "記録なし：ゲームを保存できませんでした",
    "The companion cannot start": "コンパニオンを起動できません",
    "Unfinished games": "未完了のゲーム",
    "Other unfinished games": "他の未完了のゲーム",
    "No games yet": "ゲームはまだありません",
    "Seat order (clockwise); the star starts": "席順（時計回り）、星印がスタートプレイヤー",
    "Name of seat {n}": "席{n}の名前",
    "Taking coins": "コインの獲得",
    "Each action alone": "1回ごとに計算",
    "Cumulative": "累積",
    "Next worker": "次の労働者",
    "Hidden": "非公開",
    "Shown": "公開",
    "Drawing…": "抽選中…",
    "Nothing else changes": "その他の変化なし",
    "{name} wins with {points} points": "{name}が{points}点で勝利",
    "Tie on {points} VP broken by gold: {name} has {gold} gold": "{points}勝利点で同点、ゴールドで決着：{name}は{gold}ゴールド",
    "Shared win: the same VP and the same gold": "同点勝利：勝利点もゴールドも同じ",
    "Tie on {points} points broken by VP from buildings: {name} has {vp}": "{points}点で同点、建物の勝利点で決着：{name}は{vp}",
    "Tie on {points} points and building VP broken by coins: {name} has {coins}": "{points}点・建物の勝利点とも同点、コインで決着：{name}は{coins}",
    "Shared win: the same points, building VP and coins": "同点勝利：得点・建物の勝利点・コインがすべて同じ",
    "{gold} gold": "{gold}ゴールド",
    "{vp} VP, {coins} coins": "{vp}勝利点、{coins}コイン",
    "VP by round": "ラウンドごとの勝利点",
    "Points by turn": "手番ごとの得点",
    "Scan to log this play in BG Stats": "スキャンしてBG Statsに記録",
    # -- kiosk: The Pillars of the Earth screens --------------------------------------------------
    "takes {card}": "{card}を獲得",
    "loses {card}": "{card}を失う",
    "2 gray workers next round": "次ラウンドに灰色の労働者2人",
    "protected from the event": "イベントから保護",
    "Reveal privilege cards": "特権カードを公開",
    "Reveal craftsmen for Shiring": "シャーリングの職人を公開",
    "Reveal resource cards": "資源カードを公開",
    "Ellen sees the coming event": "エレンが次のイベントを見る",
    "Phase I: take a card or pass": "フェイズ1：カードを取るかパス",
    "Too many craftsmen: discard one": "職人が多すぎます：1人捨てる",
    "Phase II: draw a master builder": "フェイズ2：マスタービルダーを引く",
    "Phase II: place or pass": "フェイズ2：配置かパス",
    "Phase II: place a passed builder": "フェイズ2：パスしたマスタービルダーを配置",
    "Phase III: the event": "フェイズ3：イベント",
    "Archbishop's Office": "大司教座",
    "Thomas: protection?": "トマス：保護しますか？",
    "Give up a craftsman": "職人を1人失う",
    "A craftsman works once more": "職人1人がもう1回働く",
    "King's Court: roll the tax die": "王宮：税ダイスを振る",
    "Tax exemption?": "免税を使いますか？",
    "The market": "市場",
    "The cathedral": "大聖堂",
    "Tax: the die shows {n}": "税：ダイスの目は{n}",
    "Nobody pays": "誰も払いません",
    "Nothing to undo since the last draw, roll or reveal": "最後の抽選・ダイス・公開以降、取り消せる手はありません",
    "{name}'s decision": "{name}の選択",
    "workers {free}/{all}": "労働者{free}/{all}",
    "Privilege card for Kingsbridge space {n}": "キングスブリッジ{n}番の特権カード",
    "Craftsman for Shiring space {n}": "シャーリング{n}番の職人",
    "Resource card {n} of 7": "資源カード{n}/7",
    "The event card": "イベントカード",
    "The event card (Ellen looks)": "イベントカード（エレンが見る）",
    "{name}: {workers} workers free, {gold} gold": "{name}：空き労働者{workers}、{gold}ゴールド",
    "{n} workers → {k} {res}": "労働者{n} → {res}{k}",
    "{n} builders in the bag · cost {cost}": "袋にマスタービルダー{n} · コスト{cost}",
    "Exempt: {names}": "免税：{names}",
    "Nobody is at the King's Court": "王宮には誰もいません",
    "{name}'s passed builder: free": "{name}のパスしたマスタービルダー：無料",
    "{name}'s builder · cost {cost}": "{name}のマスタービルダー · コスト{cost}",
    "{name}'s builder · free": "{name}のマスタービルダー · 無料",
    "Remigius: free": "レミギウス：無料",
    "{name}: protection from the event, or a cube from the market?": "{name}：イベントからの保護か、市場の資源1個か？",
    "{name}: play Thomas against this event?": "{name}：このイベントにトマスを使いますか？",
    "{name}: play the tax exemption this round?": "{name}：このラウンドに免税を使いますか？",
    "{name}: which craftsman leaves the game?": "{name}：どの職人を除外しますか？",
    "{name}: which craftsman works once more this round?": "{name}：このラウンドにもう1回働く職人は？",
    "{name}: which craftsman is discarded?": "{name}：どの職人を捨てますか？",
    "{name} trades (market space {n}): one type each turn, or pass": "{name}の取引（市場{n}番）：毎回1種類、またはパス",
    "{res} · {price} gold": "{res} · {price}ゴールド",
    "market {n}, has {k}": "市場{n}、所持{k}",
    "has {k}": "所持{k}",
    "Pass: done trading": "パス：取引終了",
    "{name}: +{vp} VP, {gold} gold left": "{name}：+{vp}勝利点、残り{gold}ゴールド",
    "{name}: not possible with these resources": "{name}：この資源ではできません",
    "up to {n}": "最大{n}",
    "Give back {n} resources ({k} chosen)": "資源を{n}個返却（{k}個選択済み）",
    "{res}: has {k}": "{res}：所持{k}",
    "Protection from the event": "イベントからの保護",
    "Take 1 {res} from the market": "市場から{res}を1個取る",
    "Play it now": "今使う",
    "Keep it for later": "後で使う",
    "Revealed: {card}": "公開：{card}",
    "Take {card}": "{card}を取る",
    "Place on {space}": "{space}に配置",
    "Buy {n} {res}": "{res}を{n}個購入",
    "Sell {n} {res}": "{res}を{n}個売却",
    # -- kiosk: The Builders screens --------------------------------------------------------------
    "{name} completes {card}: +{coins} coins, +{vp} VP": "{name}が{card}を完成：+{coins}コイン、+{vp}勝利点",
    "The end is triggered: {n} more turns this round": "終了条件達成：このラウンドの残り手番{n}",
    "Nothing to undo since the last card was revealed": "最後にカードが公開されてから取り消せる手はありません",
    "The table reveals": "場でカードを公開",
    "Buildings · next: {card}": "建物 · 次：{card}",
    "Buildings · deck: {n}": "建物 · 山札：{n}",
    "{coins}¤ {vp}VP": "{coins}¤ {vp}点",
    "Workers · next: {card}": "労働者 · 次：{card}",
    "Workers · deck: {n}": "労働者 · 山札：{n}",
    "wage {n}": "賃金{n}",
    "{name}: {coins} coins, {vp} VP": "{name}：{coins}コイン、{vp}勝利点",
    "No site yet: start a construction from the row": "建築中の建物はありません：列から建築に着手",
    "send: {ap} AP, {wage} coins": "派遣：{ap}AP、{wage}コイン",
    "next worker: {ap} AP": "次の労働者：{ap}AP",
    "Idle workers: tap one, then a site": "待機中の労働者：労働者、次に建物をタップ",
    "+{n} coins": "+{n}コイン",
    "Buy an action": "アクション購入",
    "{vp}/{goal} VP · {coins}¤": "{vp}/{goal}勝利点 · {coins}¤",
    "Tap the building card dealt into the row": "列に補充された建物カードをタップ",
    "Tap the building now on top of the deck": "山札の一番上の建物カードをタップ",
    "Tap the worker card dealt into the row": "列に補充された労働者カードをタップ",
    "Tap the worker now on top of the deck": "山札の一番上の労働者カードをタップ",
    "Tap the Apprentice dealt to {name}": "{name}に配られた見習いをタップ",
    "Draw for the table": "自動で引く",
    # -- names composed by companion.kiosk.i18n ---------------------------------------------------
    "{name} (start)": "{name}（初期）",
    "{name} (round {n})": "{name}（ラウンド{n}）",
    "{area}, space {n}": "{area}{n}番",
    "{rank} ({resources})": "{rank}（{resources}）",
    "{n} {resource}": "{resource}{n}",
    ", ": "・",
}

# -- The Pillars of the Earth ------------------------------------------------------------------
# Craftsman kinds (companion.pillars.data.KINDS); a card's name adds its round.
PILLARS_KINDS: dict[str, str] = {
    "mortar": "モルタル職人",
    "mortar!": "モルタル職人（！）",
    "woodworker": "木工",
    "woodworker!": "木工の親方",
    "stonecutter": "石切職人",
    "mason": "石工",
    "toolmaker": "道具職人",
    "potter": "陶工",
    "architect": "設計士",
    "carpenter": "大工",
    "sculptor": "彫刻家",
    "glassblower": "ガラス職人",
    "goldsmith": "金細工師",
    "bellmaker": "鐘職人",
    "organbuilder": "オルガン職人",
}

# Resource cards, privilege cards and event cards, by id.
PILLARS_CARDS: dict[str, str] = {
    "sand2": "小さな砂利場",
    "sand3": "砂利場",
    "sand4": "大きな砂利場",
    "wood2": "小さな森",
    "wood3": "森",
    "wood4": "大きな森",
    "stone2": "小さな採石場",
    "stone3": "採石場",
    "stone4": "大きな採石場",
    "madonna": "涙を流す聖母（+3勝利点）",
    "richard": "リチャード（毎ラウンド砂+1）",
    "tom": "トム・ビルダー（毎ラウンド石材+1）",
    "aliena": "アリエナ（毎ラウンド木材+1）",
    "wollmesse": "羊毛市（+8ゴールド）",
    "toledo": "トレド（金属+2）",
    "jack": "ジャック（6人目の職人）",
    "otto": "オットー（黒い労働者）",
    "francis": "フランシス修道士（税は常に2）",
    "priorphilip": "フィリップ修道院長（修道院のマスタービルダー1人につき+1勝利点）",
    "ellen": "エレン（次のイベントを見る）",
    "steuerfreiheit": "免税（1回）",
    "thomas": "トマス（イベントから1回保護）",
    "remigius": "レミギウス（マスタービルダー1人を無料配置、1回）",
    "vollendung": "完成（石材+1、木材+1）",
    "feierlichkeiten": "祝祭（金属+1）",
    "koenig": "王の来訪（+5ゴールド）",
    "william": "ウィリアム・ハムレイ（4ゴールド支払う）",
    "richardevent": "リチャードの贈り物（金属+1）",
    "konflikt": "争い（-2勝利点）",
    "stadtmauer": "市壁（次ラウンドはマスタービルダー2人まで）",
    "philip": "フィリップ修道院長の褒美（羊毛工場でゴールド）",
    "kaltewinter": "厳冬（資源カード1枚につき1個減）",
    "freiwilligen": "志願者（資源カード1枚につき1個増）",
    "teile": "苦難の時（職人を1人失う）",
    "erzbischof": "大司教（職人の使用回数+1）",
}

# Board areas (companion.pillars.data.AREA_NAMES); a space's name adds its number.
AREAS: dict[str, str] = {
    "archbishop": "大司教座",
    "kingsbridge": "キングスブリッジ",
    "priory": "修道院",
    "court": "王宮",
    "shiring": "シャーリング",
    "castle": "シャーリング城",
    "market": "市場",
    "cathedral": "大聖堂",
}

# -- The Builders: Middle Ages -------------------------------------------------------------
# Buildings and machines (設備) by id (companion.builders.cards.BUILDING).
BUILDERS_CARDS: dict[str, str] = {
    "tonnelle": "あずまや",
    "cabane": "木の小屋",
    "pont-couvert": "屋根付き橋",
    "cabane-perchee": "ツリーハウス",
    "pont-en-pierre": "石橋",
    "lavoir": "洗濯場",
    "hutte-de-paille": "わら小屋",
    "maison-urbaine": "町家",
    "chaumiere": "コテージ",
    "maison-rurale": "田舎家",
    "maisonnette": "小さな家",
    "etable": "牛小屋",
    "auberge": "宿屋",
    "porcherie": "豚小屋",
    "relais-rural": "田舎の宿場",
    "silo-a-grains": "穀物庫",
    "ecurie": "馬小屋",
    "forge": "鍛冶場",
    "moulin-a-vent": "風車",
    "moulin-a-eau": "水車小屋",
    "halles": "屋根付き市場",
    "maison-bourgeoise": "商人の屋敷",
    "relais-postal": "郵便宿",
    "hotel": "ホテル",
    "taverne": "酒場",
    "ferme": "農場",
    "eglise": "教会",
    "tour-de-guet": "見張り塔",
    "abbaye": "修道院",
    "cloitre": "回廊",
    "chapelle": "礼拝堂",
    "aqueduc": "水道橋",
    "chateau-fort": "城",
    "cathedrale": "大聖堂",
    "grue-1": "クレーン（小）",
    "grue-2": "クレーン（大）",
    "scie-circulaire-1": "丸のこ（小）",
    "scie-circulaire-2": "丸のこ（大）",
    "instrument-de-mesure-1": "測量器具（小）",
    "instrument-de-mesure-2": "測量器具（大）",
    "four-a-tuiles-1": "瓦窯（小）",
    "four-a-tuiles-2": "瓦窯（大）",
}

# Worker ranks (companion.builders.cards.WorkerCard.rank); a worker's name adds its resources.
BUILDERS_RANKS: dict[str, str] = {
    "apprentice": "見習い",
    "laborer": "作業員",
    "craftsman": "職人",
    "master": "親方",
}

# Resources of both games, and the two currencies.
RESOURCES: dict[str, str] = {
    "stone": "石材",
    "wood": "木材",
    "sand": "砂",
    "metal": "金属",
    "knowledge": "知識",
    "tile": "瓦",
    "gold": "ゴールド",
    "coins": "コイン",
}

# Short rules help for each step of companion.pillars.rules.STEPS.
STEP_HELP: dict[str, str] = {
    "privilege": (
        "ラウンド開始：特権カードの山札から2枚を公開し、キングスブリッジの2つのスペースに"
        "1枚ずつ置きます。第6ラウンドは最終ラウンド用の2枚です。"
    ),
    "craftsman": (
        "ラウンド開始：このラウンドの職人カード4枚を公開します。2枚はシャーリングの"
        "スペースに、残り2枚はカードプールに置きます。"
    ),
    "resource": (
        "ラウンド開始：資源カード9枚のうち7枚をカードプールに公開します。"
        "残り2枚はこのラウンドでは使いません。"
    ),
    "peek": (
        "エレンの持ち主は、このラウンドのイベントをラウンド開始時に見られます。"
        "効果はフェイズ3で通常どおり発生します。"
    ),
    "draft": (
        "フェイズ1：手番順に、カードプールからカードを1枚取るかパスします。"
        "パスしたらこのフェイズは終わりです。資源カードには記載の数の労働者が、"
        "職人カードにはゴールドが必要です。"
    ),
    "draft-discard": (
        "職人が上限（5人、ジャックがあれば6人）を超えました。1人を捨ててください"
        "（今取った職人でも構いません）。捨てた職人はゲームから除外されます。"
    ),
    "draw": (
        "フェイズ2：スタートプレイヤーが袋からマスタービルダーを1つ引きます。"
        "最初の配置コストは7ゴールドで、1つ引くごとに1ずつ下がります。"
    ),
    "place": (
        "引いたマスタービルダーを空いているスペースに置いて現在のコストを払うか、パスします。"
        "パスしたマスタービルダーは袋が空になった後に無料で置かれます。"
        "スタートプレイヤーは各ラウンド1回、引いたマスタービルダーを戻して引き直せます。"
    ),
    "parked": "袋が空になりました。パスしたマスタービルダーを、先にパスした順に無料で置きます。",
    "event": (
        "フェイズ3開始：イベントカードを公開し、全員に適用します。大司教座にマスタービルダー"
        "を置いたプレイヤーは、悪いイベントから守られることを選べます。"
    ),
    "archbishop": (
        "大司教座：このラウンドの悪いイベントからの保護か、市場から石材・木材・砂の"
        "いずれか1個を選びます。"
    ),
    "thomas": (
        "悪いイベントがあなたに影響します。今トマスを使って防ぐか、後のラウンドのために残します。"
    ),
    "lose": (
        "イベント：職人を1人失います（初期の職人でも構いません）。"
        "その職人はゲームから除外されます。"
    ),
    "boost": (
        "イベント：自分の職人を1人選びます（鐘職人とオルガン職人を除く）。"
        "このラウンド、その職人をもう1回使えます。"
    ),
    "roll": (
        "王宮：スタートプレイヤーが税ダイスを振ります。王宮にマスタービルダーがいない"
        "プレイヤーは、出目の分だけゴールドを支払います。"
    ),
    "taxfree": "今、免税カードを使ってこのラウンドの税を払わないか、後のラウンドのために残します。",
    "shiring-discard": (
        "シャーリングで職人が上限を超えました。1人を捨ててください。"
        "捨てた職人はゲームから除外されます。"
    ),
    "market": (
        "市場：スペース順に繰り返し、1種類の資源を好きな数だけ売るか買うか、パスします"
        "（パスしたら取引終了）。石材を売るには石切職人、木材を買うには木工が必要です。"
        "金属は売るだけです。"
    ),
    "cathedral": (
        "大聖堂：職人を使って資源を勝利点（やゴールド）に変換します。各職人は使用回数まで"
        "使えます。最適な変換が最初に提案されます。"
    ),
    "return": "資源は最大5個までしか残せません。返却する資源を選んでください。",
    "over": (
        "ゲーム終了。勝利点が最も多いプレイヤーの勝ちです。同点ならゴールドの多い方、"
        "それでも同点なら勝利を分け合います。"
    ),
}

# Short rules help for each kind of Builders action.
BUILDERS_HELP: dict[str, str] = {
    "start": "1アクションポイント：場の建物カード（設備を含む）を1枚取り、建築に着手します。",
    "recruit": "1アクションポイント：場の労働者カードを1枚取り、手元の労働者に加えます。",
    "send": (
        "待機中の労働者か完成した設備を自分の建築中の建物に派遣し、賃金を支払います。"
        "同じ手番に同じ建物へ派遣する1人目は1、2人目は2、3人目は3アクションポイントです。"
    ),
    "coins": "1・2・3アクションポイントを使って、1・3・6コインを獲得します。",
    "buy action": "5コインを払ってアクションポイントを1つ追加します。手番中に何回でも可能です。",
    "end turn": "手番を終了します。残ったアクションポイントは失われます。",
}
