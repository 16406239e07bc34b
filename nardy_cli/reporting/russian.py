"""Russian for what ``nardy validate --lang ru`` prints: each finding with its place, and the summary.

A finding's message is made in English where its rule is judged (the engine, the replay); this
catalogue gives each English message template its Russian one, so the rules keep one wording
each and the translation is one table. ``tests/test_russian.py`` translates every finding the
tests can produce, the readers' syntax errors included, and fails on any English left: a new
message must come with its Russian. A message the catalogue lacks is printed as it is.
"""
from __future__ import annotations

import re
from functools import cache

from nardy_cli.reporting.labels import plural

SIDES = {"White": ("белые", "белых"), "Black": ("чёрные", "чёрных")}
ENDINGS = {"finish": "доиграна", "drop": "отказ от удвоения", "resign": "сдача", "draw": "ничья"}
CATEGORIES = {"oin": "оином", "mars": "марсом", "home-mars": "домашним марсом", "koks": "коксом"}
STOPS = "; the replay stops here: the recorded play cannot be made on the board"
STOPS_RU = "; разбор остановлен: записанный ход нельзя сделать на доске"

# English template -> Russian template. {side}/{other}: White or Black ({side_gen}: the genitive);
# {text_*}: a part that is itself translated; any other {name}: kept as written.
CATALOGUE: list[tuple[str, str]] = [
    (("{side} has no checker on {point} (Black's points are counted from Black's own side: was the play "
      "written in White's numbering?)"),
     ("у {side_gen} нет шашки на {point} (чёрные считают пункты от своей стороны: не записан ли ход "
      "в нумерации белых?)")),
    ("{side} has no checker on {point}", "у {side_gen} нет шашки на {point}"),
    ("{side} must enter the checker on the bar before moving {point}",
     "{side} должны сначала ввести шашку с бара, а не ходить с {point}"),
    ("more than two checkers left the head", "с головы снято больше двух шашек"),
    ("two checkers left the head: only one checker may leave the head per turn",
     "с головы снято две шашки: за ход с головы снимается только одна"),
    ("two checkers left the head: one checker can play the whole {die}-{again} from the head",
     "с головы снято две шашки: весь дубль {die}-{again} можно сыграть одной шашкой с головы"),
    ("two checkers left the head", "с головы снято две шашки"),
    ("{side} bears off from {point} before all checkers are home",
     "{side} выбрасывают с {point}, когда ещё не все шашки в доме"),
    ("{side} bears off from {point} with a {die} while a checker stands higher",
     "{side} выбрасывают с {point} по {die}, хотя выше стоит шашка"),
    ("{step}: point {point} is held by {side}", "{step}: пункт {point} занят, там {side}"),
    ("{step}: point {point} is made by two or more checkers of {side}",
     "{step}: пункт {point} закрыт: на нём две шашки {side_gen} или больше"),
    ("{step} builds six points in a row with no {side} checker ahead",
     "{step} строит шесть пунктов подряд, а впереди нет ни одной шашки {side_gen}"),
    ("the moves do not match the roll {roll}", "ходы не соответствуют броску {roll}"),
    ("{count} moves for a roll of {roll}", "ходов: {count}, а бросок {roll}"),
    ("no die played where {most} can be", "не сыграно ни одной кости, а можно {most}"),
    ("1 die played where {most} can be", "сыграна 1 кость, а можно {most}"),
    ("{count} dice played where {most} can be", "сыграно костей: {count}, а можно {most}"),
    ("only one die can be played and the {die} must be",
     "можно сыграть только одну кость, и играть надо {die}"),
    ("{step} is a move too many: the moves before it use every die of the roll {roll}",
     "{step} — лишний ход: предыдущие ходы уже используют все кости броска {roll}"),
    ("{step} cannot be played with the dice left ({dice}) of the roll {roll}",
     "{step} нельзя сыграть оставшимися костями ({dice}) броска {roll}"),
    ("the game was already over ({ending})", "партия уже окончена ({ending})"),
    ("move number {number} where {expected} was expected", "номер хода {number}, а должен быть {expected}"),
    ("{side} rolled without answering the double", "{side} бросили кости, не ответив на удвоение"),
    ("{side} moved but it was {other}'s turn", "{side} сходили, а ход был за {other}"),
    ("a turn without dice", "ход без костей"),
    ("the opening roll of short nardy cannot be a double", "первый бросок в коротких нардах не может быть дублем"),
    ("the opening dice are the first roll and cannot be a double",
     "кости розыгрыша первого хода — это и первый бросок, он не может быть дублем"),
    ("the doubling cube is not used", "куб удвоения не используется"),
    ("no doubling in the Crawford game", "в партии Кроуфорда удваивать нельзя"),
    ("{side} doubled on {other}'s turn", "{side} удвоили в ход {other_gen}"),
    ("{side} doubled without owning the cube", "{side} удвоили, не владея кубом"),
    ("the cube goes to {value}, not {written}", "куб переходит на {value}, а не на {written}"),
    ("{side} answered ({kind}) no double", "{side} ответили ({kind}), хотя удвоения не было"),
    ("a beaver is allowed only in money play", "бобёр разрешён только в игре на деньги"),
    ("the game is over ({text_expected}) but marked unfinished",
     "партия окончена ({text_expected}), а записана как неоконченная"),
    ("declared a draw but {text_expected}", "записана ничья, но {text_expected}"),
    ("unreadable result {result}: expected W-B points, 1/2-1/2 or *",
     "нечитаемый результат {result}: нужны очки Б-Ч, 1/2-1/2 или *"),
    ("result {result} names no single winner", "в результате {result} нет одного победителя"),
    ("declared {result} but the game is not over (no finish, drop or resignation recorded)",
     "записан результат {result}, но партия не окончена (нет ни конца, ни отказа, ни сдачи)"),
    ("declared {result} but {text_expected}", "записан результат {result}, но {text_expected}"),
    ("the last roll made it a draw (1/2-1/2)", "последний бросок дал ничью (1/2-1/2)"),
    ("the game is not over", "партия не окончена"),
    ("{side} won on a dropped double: {score}", "{side} выиграли отказом от удвоения: {score}"),
    ("{side} won by resignation: {score}", "{side} выиграли сдачей: {score}"),
    ("{side} won with {category}: {score}", "{side} выиграли {category}: {score}"),
    ("unknown tag {name} (kept): the standard tags are {tags}",
     "неизвестный тег {name} (сохранён): стандартные теги — {tags}"),
    ("Rules tag: {text_error}; the game is judged without the tag, under {rules}",
     "тег Rules: {text_error}; партия проверена без него, по правилам {rules}"),
    # a rule text (nardy_cli.core.rules): a Rules tag's error
    ("it names {variant} nardy, but the game is {other_variant} (its Variant tag)",
     "в нём правила {variant}, а партия — {other_variant} (тег Variant)"),
    ("{setting} is not allowed in {other_variant}: expected one of {names}",
     "{setting} не допускается в правилах {other_variant}: ожидалось одно из {names}"),
    ("rule option {name} does not exist in {other_variant}: its options are {options}",
     "в правилах {other_variant} нет опции {name}: их опции — {options}"),
    ("unknown rule option {name}: the options are {options}", "неизвестная опция правил {name}; опции — {options}"),
    ("expected key=value, found {found}", "ожидалось 'ключ=значение', найдено {found}"),
    # the match checks (nardy_cli.matches) and the notes
    ("the score before this game is stated as {stated} but the games before give {start}",
     "счёт перед партией записан как {stated}, а по предыдущим партиям выходит {start}"),
    ("tagged as the Crawford game, but at {score} in a {length}-point match it is not the Crawford game",
     "отмечена как партия Кроуфорда, но при счёте {score} в матче до {length} это не партия Кроуфорда"),
    ("tagged as not the Crawford game, but at {score} in a {length}-point match it is the Crawford game",
     "отмечена как не партия Кроуфорда, но при счёте {score} в матче до {length} это партия Кроуфорда"),
    ("the record begins the match at {score} in a {length}-point match, where the Crawford game may be over: the "
     "cube action is taken to show that it is",
     "запись начинает матч до {length} со счёта {score}, когда партия Кроуфорда могла быть уже сыграна: действие "
     "с кубом принято за знак того, что она сыграна"),
    ("the match was already over: {winner} won it {score} in game {game}",
     "матч уже окончен: {winner} выиграл его со счётом {score} в партии {game}"),
    ("the record says this game won the match, but the score after it is {score} in a {length}-point match",
     "по записи эта партия выиграла матч, но счёт после неё {score} в матче до {length}"),
    ("unfinished match: it ends at {score} and nobody reached {length} points",
     "матч не окончен: счёт {score}, никто не набрал {length} очков"),
    ("unfinished match: it ends with a game of unknown points and nobody reached {length} points",
     "матч не окончен: очки одной из партий неизвестны, никто не набрал {length} очков"),
    ("{points} declared for {what} on {cube}: consistent with {option}",
     "записано {points} за {what} при {cube}: так выходит по правилу {option}"),
    ("{points} declared: more than a game on a {cube}-cube is worth, but exactly what {side} needed to win the "
     "match (a match given up or lost on time?)",
     "записано {points}: больше, чем стоит партия при кубе {cube}, но ровно столько, сколько {side} не хватало "
     "до победы в матче (матч сдан или проигран по времени?)"),
    ("declared {result}: {points} is more than a game on a {cube}-cube can be worth ({most})",
     "записан результат {result}: {points} — больше, чем может стоить партия при кубе {cube} ({most})"),
    ("declared {result}: no game on a {cube}-cube is worth {points}",
     "записан результат {result}: ни одна партия при кубе {cube} не стоит {points}"),
    ("{lost} ignored: the 'Wins' line on line {line} gives the game to {side} ({points})",
     "{lost} не учтено: строка 'Wins' в строке {line} отдаёт партию: {side} ({points})"),
    # the readers' syntax errors: {found} is the input quoted as it is
    ("{source}: and {count} more syntax errors in this input, not listed",
     "{source}: и ещё синтаксических ошибок в этом вводе: {count} (не показаны)"),
    ("and {count} more syntax errors in this game, not listed",
     "и ещё синтаксических ошибок в этой партии: {count} (не показаны)"),
    # the play of a roll (nardy_cli.record.parse_play)
    ("point {value} is not 0-25", "пункт {value} не из 0-25"),
    ("a move cannot start off", "ход не может начинаться с off"),
    ("a move cannot end on the bar", "ход не может заканчиваться на баре"),
    ("expected a move like 24/18 or 6/off(2), found {found}",
     "ожидался ход вида 24/18 или 6/off(2), а найдено {found}"),
    ("a path cannot go on after off", "путь не может продолжаться после off"),
    ("repeat ({count}) must be 1-4", "повтор ({count}) должен быть от 1 до 4"),
    # NTN
    ('expected a tag like [Event "..."], found {found}', 'ожидался тег вида [Event "..."], а найдено {found}'),
    ("tag {name} is given twice; the first value is kept", "тег {name} указан дважды; сохранено первое значение"),
    ("comment is not closed with }", "комментарий не закрыт знаком }}"),
    ('expected ":" after the roll {roll}', 'после броска {roll} ожидалось ":"'),
    ("expected a roll like 63:, a cube action or a result, found {found}",
     "ожидался бросок вида 63:, действие с кубом или результат, а найдено {found}"),
    ("move numbers start at 1, found {found}", "номера ходов начинаются с 1, а найдено {found}"),
    ("move number {number} goes back: expected {expected} or a later one",
     "номер хода {number} идёт назад: ожидался {expected} или больше"),
    ("expected a roll like 63: or 6-3:, found {found}", "ожидался бросок вида 63: или 6-3:, а найдено {found}"),
    ('expected ">" right after a roll\'s play, before the steps it passes',
     'ожидался ">" сразу после хода броска, перед пройденными шагами'),
    ('expected the passed steps after ">": moves like 24/18, "-" when none is possible or "?"',
     'после ">" ожидались пройденные шаги: ходы вида 24/18, "-", когда хода нет, или "?"'),
    ('expected the play after the roll: moves like 24/18, "-" when none is possible or "?"',
     'после броска ожидался ход: ходы вида 24/18, "-", когда хода нет, или "?"'),
    ('result {result} differs from the Result tag "{declared}"',
     'результат {result} расходится с тегом Result "{declared}"'),
    # MAT
    ("expected the score line 'name : score   name : score' after ' Game {number}', found {found}",
     "после ' Game {number}' ожидалась строка счёта 'name : score   name : score', а найдено {found}"),
    ("expected nothing after the result {points} point(s), found {found}",
     "после результата (очков: {points}) ничего не ожидалось, а найдено {found}"),
    ("expected two dice 1-6 before ':', found {found}", "перед ':' ожидались две кости 1-6, а найдено {found}"),
    ("expected a roll like '63: 24/18 13/10', 'Doubles => 2', 'Takes', 'Drops', 'Beavers' or 'Wins 1 point', "
     "found {found}",
     "ожидался бросок вида '63: 24/18 13/10', 'Doubles => 2', 'Takes', 'Drops', 'Beavers' или 'Wins 1 point', "
     "а найдено {found}"),
    ("expected the result stated on line {line}, found a different one",
     "ожидался результат, записанный в строке {line}, а найден другой"),
    ("expected a header '; [Key \"value\"]', 'N point match' or ' Game N', found {found}",
     "ожидался заголовок '; [Key \"value\"]', 'N point match' или ' Game N', а найдено {found}"),
    ("expected 'N point match' before ' Game {number}', found none",
     "перед ' Game {number}' ожидалось 'N point match', а его нет"),
    ("expected a MAT match (' Game N' and its moves), found no game",
     "ожидался матч MAT (' Game N' и его ходы), а нет ни одной партии"),
    # SGF
    ("expected '[' after property {ident}", "после свойства {ident} ожидалось '['"),
    ("expected ']' to close the value of {ident}, found the next game tree on line {line}",
     "ожидалось ']', закрывающее значение {ident}, а в строке {line} началось следующее дерево партии"),
    ("expected ']' to close the value of {ident}, found the end of the input",
     "ожидалось ']', закрывающее значение {ident}, а ввод кончился"),
    ("expected ';' after '(', found {found}", "после '(' ожидалось ';', а найдено {found}"),
    ("expected a property name before '['", "перед '[' ожидалось имя свойства"),
    ("expected a property name in capitals, found {found}",
     "ожидалось имя свойства заглавными буквами, а найдено {found}"),
    ("expected ')' to close the game tree ({depth} open), found the next game tree",
     "ожидалась ')', закрывающая дерево партии (открыто: {depth}), а началось следующее дерево"),
    ("expected ')' to close the game tree ({depth} open), found the end of the input",
     "ожидалась ')', закрывающая дерево партии (открыто: {depth}), а ввод кончился"),
    ("expected '(', ';', ')' or a property, found {found}", "ожидалось '(', ';', ')' или свойство, а найдено {found}"),
    ("expected Key:Value in NT, found {found}", "в NT ожидалась пара ключ:значение, а найдено {found}"),
    ("expected a number for MI {key}, found {found}", "для MI {key} ожидалось число, а найдено {found}"),
    ("{token} is not played with 15 checkers; its start position cannot be given",
     "{token} играют не 15 шашками; её начальную позицию задать нельзя"),
    ("expected one move in a node, found {first} and {second}; {ignored} ignored",
     "в узле ожидался один ход, а найдены {first} и {second}; {ignored} пропущен"),
    ("NA: {text_error}", "NA: {text_error}"),
    ("expected PL[W] or PL[B], found {found}", "ожидалось PL[W] или PL[B], а найдено {found}"),
    ("set-up {ident} after the first move (the position edited during the game) cannot be replayed: the moves "
     "after it are judged on the board before it; kept in tag SGFSetup",
     "расстановку {ident} после первого хода (позицию изменили по ходу партии) нельзя воспроизвести: ходы после "
     "неё проверены на доске до неё; она сохранена в теге 'SGFSetup'"),
    ("expected a cube value such as CV[2], found {found}",
     "ожидалось значение куба, например CV[2], а найдено {found}"),
    ("expected {ident}[w], [b], [c] or [n], found {found}",
     "ожидалось {ident}[w], [b], [c] или [n], а найдено {found}"),
    ("expected a point a-y or a range such as a:y in {ident}, found {found}",
     "в {ident} ожидался пункт a-y или диапазон, например a:y, а найдено {found}"),
    ("expected two dice 1-6 such as DI[31], found {found}",
     "ожидались две кости 1-6, например DI[31], а найдено {found}"),
    ("expected dice such as 41 then letter pairs, or double, take or drop, in {ident}[], found {found}",
     "в {ident}[] ожидались кости, например 41, и пары букв или 'double', 'take' или 'drop', а найдено {found}"),
    ("expected a (from, to) letter pair, from a-y to a-x or z, found a lone {found}",
     "ожидалась пара букв (откуда, куда): откуда a-y, куда a-x или z, а найдена одна {found}"),
    ("expected a (from, to) letter pair, from a-y to a-x or z, found {found}",
     "ожидалась пара букв (откуда, куда): откуда a-y, куда a-x или z, а найдено {found}"),
    ("the set-up gives {side} {count} checkers, not {checkers}",
     "в расстановке у {side_gen} шашек: {count}, а не {checkers}"),
    # a Position tag, and the position notation (nardy_cli.core.position)
    ("Position tag: {text_problem}", "тег 'Position': {text_problem}"),
    ("Position tag is {variant} nardy but the game is {other_variant}",
     "тег 'Position' — позиция {variant}, а партия — {other_variant}"),
    ("{side}'s board must have 26 non-negative counts", "доска {side_gen}: нужно 26 неотрицательных чисел"),
    ("{side} has {count} checkers, not {total}", "у {side_gen} {count} шашек, а не {total}"),
    ("{game} has no bar", "в игре «{game}» нет бара"),
    ("White's point {point} holds checkers of both sides", "на пункте {point} белых шашки обеих сторон"),
    ("expected '<variant> <side> <white> <black> [<first>]', found {text}",
     "ожидалось '<вариант> <сторона> <белые> <чёрные> [<первый ход>]', найдено {text}"),
    ("unknown variant {name}: expected one of {names}", "неизвестный вариант {name}: ожидался один из {names}"),
    ("side to move must be w or b, found {text}", "сторона хода — w или b, найдено {text}"),
    ("White's checkers: {text_problem}", "шашки белых: {text_problem}"),
    ("Black's checkers: {text_problem}", "шашки чёрных: {text_problem}"),
    ("cube value must be a power of two, found {value}", "значение куба должно быть степенью двойки, найдено {value}"),
    ("expected first-turn sides (wb, w, b, -) or cube=N[w|b], found {text}",
     "ожидались стороны первого хода (wb, w, b, -) или 'cube=N[w|b]', найдено {text}"),
    ("expected a point like 13x5, 6 or bar, found {text}", "ожидался пункт вида 13x5, 6 или bar, найдено {text}"),
    ("point {point} is not on the board (1-24, bar)", "пункта {point} нет на доске (1-24, bar)"),
    ("point {point} is listed twice", "пункт {point} указан дважды"),
    ("{text} lists no checkers", "в {text} не указано шашек"),
    ("{count} checkers listed, at most {total}", "указано шашек: {count}, а можно не больше {total}"),
    ("the set-up is not a position of {variant} nardy: {text_problem}",
     "расстановка — не позиция {variant}: {text_problem}"),
    # XG
    ("record {number}: {text_message}", "запись {number}: {text_message}"),
    ("unknown record type {kind}: expected 0-6 (match/game header, cube, move, footer)",
     "неизвестный тип записи {kind}: ожидался 0-6 (заголовок матча или партии, куб, ход, конец)"),
    ("the game starts from a position of its own, and no cube or move record tells it",
     "партия начинается со своей позиции, но ни одна запись куба или хода её не называет"),
    ("the game's own start is not a position: {text_problem}",
     "своя начальная позиция партии — не позиция: {text_problem}"),
    ("a raccoon (the doubler redoubled the beaver to {value}): nardy does not replay raccoons",
     "енот (удвоивший передвоил бобра до {value}): енотов программа не воспроизводит"),
    ("expected two dice 1-6, found {first} and {second}", "ожидались две кости 1-6, а найдены {first} и {second}"),
    ("expected a checker move from a point 1-25 at most 6 points down, found {start} to {end}",
     "ожидался ход шашки с пункта 1-25 не больше чем на 6 пунктов, а найден ход с {start} на {end}"),
    ("impossible position before the move: {mine} and {theirs} checkers (at most {checkers} a side), or a side's "
     "checkers on the other's bar",
     "невозможная позиция перед ходом: шашек {mine} и {theirs} (не больше {checkers} у стороны) или шашки одной "
     "стороны на баре другой"),
    # JSON and JSON Lines
    ("invalid JSON: {text_reason}; expected one game object on each line",
     "неверный JSON: {text_reason}; в каждой строке ожидался один объект партии"),
    ("invalid JSON: {text_reason}", "неверный JSON: {text_reason}"),
    ("objects nested too deeply", "слишком глубокая вложенность объектов"),
    ("a number too long to read", "слишком длинное число"),
    ("expecting value", "ожидалось значение"),
    ("expecting ',' delimiter", "ожидался разделитель ','"),
    ("expecting ':' delimiter", "ожидался разделитель ':'"),
    ("expecting property name enclosed in double quotes", "ожидалось имя поля в двойных кавычках"),
    ("unterminated string starting", "незакрытая строка"),
    ("invalid control character", "недопустимый управляющий символ"),
    ("invalid \\escape", "недопустимое экранирование"),
    ("invalid \\uxxxx escape", "недопустимое экранирование \\uXXXX"),
    ("extra data", "лишние данные"),
    ("illegal trailing comma before end of object", "лишняя запятая перед концом объекта"),
    ("illegal trailing comma before end of array", "лишняя запятая перед концом массива"),
    ("expected the end of the line after the game object, found {found}",
     "после объекта партии ожидался конец строки, а найдено {found}"),
    ("expected ']' to close the array of games, found the end of the input",
     "ожидалась ']', закрывающая массив партий, а ввод кончился"),
    ("expected a game object, found {json_type}", "ожидался объект партии, а найдено: {json_type}"),
    ('unknown game field {found}: expected {names} (an action\'s fields belong in "actions")',
     'неизвестное поле партии {found}: ожидались {names} (поля действия пишутся в "actions")'),
    ("unknown game field {found}: expected {names}", "неизвестное поле партии {found}: ожидались {names}"),
    ("unknown field {found}: expected {names}", "неизвестное поле {found}: ожидались {names}"),
    ('expected a game (an object whose first field is "tags", "actions" or "result"), found {found}: skipped to '
     "{text_whither}",
     'ожидалась партия (объект, первое поле которого "tags", "actions" или "result"), а найдено {found}: '
     "пропущено до {text_whither}"),
    ("the next game, on line {line}", "следующей партии, в строке {line}"),
    ("the end of the array, on line {line}", "конца массива, в строке {line}"),
    ("the end of the input", "конца ввода"),
    ("action {index}: {text_error}", "действие {index}: {text_error}"),
    ("expected an object", "ожидался объект"),
    ('"tags" must be an object of strings', '"tags" должно быть объектом со строковыми значениями'),
    ("{what} must be a string or null", "{what} должно быть строкой или null"),
    ("{what} must be an array of strings", "{what} должно быть массивом строк"),
    ("{what} must be an array", "{what} должно быть массивом"),
    ("{what} must be a whole number", "{what} должно быть целым числом"),
    ('"side" must be "w" or "b", found {found}', '"side" должно быть "w" или "b", а найдено {found}'),
    ('"kind" must be one of {kinds}, found {found}', '"kind" должно быть одним из: {kinds}, а найдено {found}'),
    ('"dice" must be two numbers 1-6, found {found}', '"dice" должно быть двумя числами 1-6, а найдено {found}'),
    ('a {kind_name} action needs "{field}"', 'действию {kind_name} нужно "{field}"'),
    # the analysis of an action (nardy_cli.notations.analysis), in NTN comments, SGF NA[] and JSON
    ("an analysis must be an object, found {json_type}", "анализ должен быть объектом, а найдено: {json_type}"),
    ("unknown analysis field {found}: expected {names}", "неизвестное поле анализа {found}: ожидались {names}"),
    ('an analysis "level" must be a string', 'поле анализа "level" должно быть строкой'),
    ('an analysis "{name}" must be a number, found {found}',
     'поле анализа "{name}" должно быть числом, а найдено {found}'),
    ("an analysis decision must be one of {decisions}, found {found}",
     "решение анализа должно быть одним из: {decisions}, а найдено {found}"),
    ("expected an analysis like '[%analysis move played=-0.27 best=-0.21 luck=0.03 level=4-ply]', found {found}",
     "ожидался анализ вида '[%analysis move played=-0.27 best=-0.21 luck=0.03 level=4-ply]', а найдено {found}"),
    ("expected a number after {name}=, found {found}", "после {name}= ожидалось число, а найдено {found}"),
    ("expected a finite number after {name}=, found {found}",
     "после {name}= ожидалось конечное число, а найдено {found}"),
]


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template)
    regex = "".join(re.escape(part) if index % 2 == 0 else
                    (f"(?P<{part}>White|Black)" if part in ("side", "other") else f"(?P<{part}>.+?)")
                    for index, part in enumerate(parts))
    return re.compile(regex + r"\Z")


@cache
def _compiled() -> list[tuple[re.Pattern[str], str]]:
    """The catalogue's patterns, compiled on first use: about 10 ms, which a run in English need not pay."""
    return [(_pattern(english), russian) for english, russian in CATALOGUE]


def message(text: str) -> str:
    """The Russian of a finding's message, or the message as it is when the catalogue lacks it."""
    stops = text.endswith(STOPS)
    body = text[: -len(STOPS)] if stops else text
    for pattern, russian in _compiled():
        match = pattern.match(body)
        if match:
            fields = match.groupdict()
            values: dict[str, str] = {}
            for name, value in fields.items():
                if name in ("side", "other"):
                    values[name], values[f"{name}_gen"] = SIDES[value]
                elif name.startswith("text_"):
                    values[name] = message(value)
                elif name == "ending":
                    values[name] = ENDINGS.get(value, value)
                elif name == "category":
                    values[name] = CATEGORIES.get(value, value)
                elif name == "kind":
                    values[name] = _CUBE.get(value, value)
                elif name in ("points", "most") and (counted := re.fullmatch(r"(\d+) points?", value)):
                    values[name] = plural("points", int(counted[1]), "ru")
                elif name == "what":
                    values[name] = _WON_WITH.get(value, value)
                elif name == "json_type":
                    values[name] = _JSON_TYPES.get(value, value)
                elif name == "variant":
                    values[name] = _VARIANTS.get(value, f"{value} nardy")
                elif name == "names":  # identifiers to type, as they are written
                    values[name] = ", ".join(f"'{word}'" for word in value.split(", "))
                elif name == "other_variant":
                    values[name] = _VARIANTS.get(value.removesuffix(" nardy"), value)
                elif name == "options":  # identifiers to type, and the games they belong to
                    values[name] = re.sub(r"\((\w+) nardy\)", lambda game: f"({_GAMES.get(game[1], game[0])})", value)
                elif name == "cube" and not value.isdigit():
                    cube = re.fullmatch(r"an? (\d+)-cube", value)
                    values[name] = f"кубе {cube[1]}" if cube else "неудвоенном кубе" if value == "an unturned cube" \
                        else value
                else:
                    values[name] = value
            body = russian.format(**values)
            break
    return body + (STOPS_RU if stops else "")


_PLACE = re.compile(r"(?P<where>.*?:\d+:\d+): game (?P<game>\d+) \((?P<title>.*)\)"
                    r"(?:, (?:move (?P<move>\d+) )?(?:(?P<side>White|Black) )?(?P<action>.*?))?"
                    r": (?P<code>[a-z-]+): (?P<message>.*?)(?P<option> \([a-z_]+=[a-z-]+\))?\Z")
_NOTE_CODE = {"note": "примечание"}
_WON_WITH = {"a gammon (mars)": "марс", "a backgammon (koks)": "кокс", "an oin": "оин", "a home-mars": "домашний марс"}
_JSON_TYPES = {"list": "массив", "str": "строка", "int": "число", "float": "число", "bool": "true или false",
               "NoneType": "null"}
# a game's name in the genitive, by its variant or its title's first word ("crazy nardy")
_VARIANTS = {"long": "длинных нард", "short": "коротких нард", "crazy": "бешеных нард"}
_GAMES = {"long": "длинные нарды", "short": "короткие нарды", "crazy": "бешеные нарды"}
_CUBE = {"double": "удвоение", "take": "принятие", "drop": "отказ", "beaver": "бобёр", "resign": "сдача"}


def finding_line(line: str) -> str:
    """A line of ``nardy validate`` in Russian: ``файл:строка:столбец: партия N (…), ход M чёрные 54: …``."""
    match = _PLACE.match(line)
    if not match:
        return line
    what = f"партия {match['game']} ({match['title']})"
    if match["action"] is not None:
        move = f"ход {match['move']} " if match["move"] else ""
        side = f"{SIDES[match['side']][0]} " if match["side"] else ""
        word, _, rest = match["action"].partition(" ")
        action = _CUBE[word] + (f" {rest}" if rest else "") if word in _CUBE else match["action"]
        what += f", {move}{side}{action}"
    code = _NOTE_CODE.get(match["code"], match["code"])
    return f"{match['where']}: {what}: {code}: {message(match['message'])}{match['option'] or ''}"


_NOUNS = {"file": "files", "game": "games", "turn": "turns", "legal game": "legal_games", "finding": "findings",
          "unreadable input": "unreadable", "note": "notes", "match": "matches_count"}
_COUNT = re.compile(r"(\d+) (file|game|turn|legal game|finding|unreadable input|note|match)(?:es|s)?\b")
_COMPLETE = re.compile(r"\((\d+) complete\)")


def summary(text: str) -> str:
    """The summary of ``nardy validate`` in Russian, with the plural forms Russian wants."""
    lines = []
    for line in text.splitlines():
        if line.startswith("rules: "):
            rules, _, games = line[len("rules: "):].rpartition(" (")
            count = int(games.split()[0])
            variant, _, options = rules.partition(" ")
            name = {"long": "длинные нарды", "short": "короткие нарды"}.get(variant, variant)
            lines.append(f"правила: {name} {options} ({plural('games', count, 'ru')})")
        else:
            line = _COMPLETE.sub(lambda m: f"(завершено: {m[1]})", line)
            lines.append(_COUNT.sub(lambda m: plural(_NOUNS[m[2]], int(m[1]), "ru"), line))
    return "\n".join(lines)
