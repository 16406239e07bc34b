"""Every label a table, chart, report or board shows, in English or Russian: one translation table."""
from __future__ import annotations

from typing import Any

LANGS = ("en", "ru")

# key -> (English, Russian): every label shown to a reader.
TEXT: dict[str, tuple[str, str]] = {
    "oin": ("oin", "оин"),
    "mars": ("mars", "марс"),
    "home-mars": ("home mars", "домашний марс"),
    "koks": ("koks", "кокс"),
    "resign": ("resignation", "сдача"),
    "drop": ("dropped double", "отказ от удвоения"),
    "draw": ("draw", "ничья"),
    "unfinished": ("unfinished", "не окончена"),
    "long": ("long nardy", "длинные нарды"),
    "short": ("short nardy", "короткие нарды"),
    "player": ("player", "игрок"),
    "event": ("event", "турнир"),
    "variant": ("variant", "вариант"),
    "file": ("file", "файл"),
    "game": ("game", "партия"),
    "games": ("games", "партии"),
    "wins": ("wins", "победы"),
    "wins_white": ("White's wins", "победы белых"),
    "win_rate": ("win %", "% побед"),
    "first_mover_win_rate": ("first mover wins %", "% побед начинающего"),
    "mean_turns": ("mean length (turns)", "средняя длина (ходы)"),
    "median_turns": ("median length (turns)", "медиана длины (ходы)"),
    "mean_pips_lost": ("mean pips lost", "потеряно пипсов в среднем"),
    "n": ("rolls (n)", "броски (n)"),
    "doubles": ("doubles", "дубли"),
    "doubles_rate": ("doubles %", "% дублей"),
    "chi2_rolls": ("χ² (21 rolls)", "χ² (21 бросок)"),
    "p_rolls": ("p (21 rolls)", "p (21 бросок)"),
    "chi2_doubles": ("χ² (doubles)", "χ² (дубли)"),
    "p_doubles": ("p (doubles)", "p (дубли)"),
    "flagged": ("suspicious (p < 0.01)", "подозрительно (p < 0.01)"),
    "too_few": ("too few rolls (< {n})", "мало бросков (< {n})"),
    "yes": ("yes", "да"),
    "no": ("no", "нет"),
    "all": ("all players", "все игроки"),
    "white": ("White", "белые"),
    "black": ("Black", "чёрные"),
    "turn": ("turn", "ход"),
    "turns": ("turns", "ходы"),
    "pips": ("pips", "пипсы"),
    "off": ("off", "снято"),
    "bar": ("bar", "бар"),
    "dice": ("dice", "кости"),
    "to_move": ("{side} to move", "ход: {side}"),
    "rolled": ("{side} played {dice}", "{side} сыграли {dice}"),
    "numbering": ("points in White's numbering", "пункты в нумерации белых"),
    "side": ("side", "сторона"),
    "move": ("move", "ход"),
    "move_number": ("move", "ход"),
    "line": ("line", "строка"),
    "roll": ("roll", "бросок"),
    "game_over": ("game over: {side} won {how}, {points}", "партия окончена: {side} выиграли {how}, {points}"),
    "game_drawn": ("game over: a draw by the last roll", "партия окончена: ничья последним броском"),
    "how_oin": ("with oin", "оином"),
    "how_mars": ("with mars", "марсом"),
    "how_home-mars": ("with home mars", "домашним марсом"),
    "how_koks": ("with koks", "коксом"),
    "how_drop": ("on a dropped double", "отказом от удвоения"),
    "how_resign": ("by resignation", "сдачей"),
    "files_one": ("{n} file", "{n} файл"),
    "files_few": ("{n} files", "{n} файла"),
    "files_many": ("{n} files", "{n} файлов"),
    "games_one": ("{n} game", "{n} партия"),
    "games_few": ("{n} games", "{n} партии"),
    "games_many": ("{n} games", "{n} партий"),
    "turns_one": ("{n} turn", "{n} ход"),
    "turns_few": ("{n} turns", "{n} хода"),
    "turns_many": ("{n} turns", "{n} ходов"),
    "legal_games_one": ("{n} legal game", "{n} партия без нарушений"),
    "legal_games_few": ("{n} legal games", "{n} партии без нарушений"),
    "legal_games_many": ("{n} legal games", "{n} партий без нарушений"),
    "findings_one": ("{n} finding", "{n} нарушение"),
    "findings_few": ("{n} findings", "{n} нарушения"),
    "findings_many": ("{n} findings", "{n} нарушений"),
    "unreadable_one": ("{n} unreadable input", "{n} нечитаемый вход"),
    "unreadable_few": ("{n} unreadable inputs", "{n} нечитаемых входа"),
    "unreadable_many": ("{n} unreadable inputs", "{n} нечитаемых входов"),
    "points_one": ("{n} point", "{n} очко"),
    "points_few": ("{n} points", "{n} очка"),
    "points_many": ("{n} points", "{n} очков"),
    "cube": ("cube", "куб"),
    "cube_centre": ("in the centre", "в центре"),
    "cube_w": ("White's", "у белых"),
    "cube_b": ("Black's", "у чёрных"),
    "marks": ("on the board: - from, + to", "на доске: - откуда, + куда"),
    "white_numbering": ("in White's numbering", "в нумерации белых"),
    "path": ("file", "файл"),
    "action": ("action", "действие"),
    "code": ("finding", "нарушение"),
    "message": ("message", "описание"),
    "option": ("rule option", "правило"),
    "no_data": ("no data", "нет данных"),
    "title_report": ("nardy statistics", "статистика нард"),
    "title_summary": ("Summary", "Сводка"),
    "title_players": ("Players", "Игроки"),
    "title_outcomes": ("Outcomes", "Исходы"),
    "title_outcomes_by_player": ("Wins by outcome, per player", "Победы по исходам, по игрокам"),
    "title_lengths": ("Game length", "Длина партии"),
    "title_first_mover": ("First-mover advantage", "Преимущество первого хода"),
    "title_dice": ("Dice", "Кости"),
    "title_race": ("Pip count race", "Гонка: пипсы по ходам"),
    "board": ("board", "доска"),
    "title_inputs": ("Inputs and rules", "Входные файлы и правила"),
    "rules": ("rules", "правила"),
    "title_findings": ("Illegal moves and other findings", "Нарушения правил и другие замечания"),
    "more_findings": ("… and {n} more: see findings.csv", "… и ещё {n}: см. findings.csv"),
    "no_findings": ("No findings: every game is legal.", "Замечаний нет: все партии по правилам."),
    "observed": ("obs.", "набл."),
    "expected": ("exp.", "ожид."),
    "share_of_games": ("share of the player's games (%)", "доля партий игрока (%)"),
    "illegal_turn": ("illegal turn", "ход с нарушением"),
    "observed_expected": ("observed / expected", "наблюдаемое / ожидаемое"),
    "first_die": ("higher die", "старшая кость"),
    "second_die": ("lower die", "младшая кость"),
    "even": ("even chances", "равные шансы"),
}


def plural(key: str, n: int, lang: str = "en") -> str:
    """``n`` with the plural form of ``key`` (``KEY_one``, ``KEY_few``, ``KEY_many``) that ``lang``
    wants: English one/many; Russian 1, 21, 31… one, 2–4, 22–24… few, else many (11–14 many)."""
    if lang == "ru":
        form = "one" if n % 10 == 1 and n % 100 != 11 else "few" if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 \
            else "many"
    else:
        form = "one" if n == 1 else "many"
    return tr(f"{key}_{form}", lang, n=n)


def tr(key: str, lang: str = "en", **values: Any) -> str:
    """The label ``key`` in ``lang`` (``en`` or ``ru``), formatted with ``values``; unknown keys as is."""
    pair = TEXT.get(key)
    text = key if pair is None else pair[LANGS.index(lang)]
    return text.format(**values) if values else text
