"""A vault written in Spanish, Portuguese, French… reads its words in that language as well as in English: "fecha"
(date) and "hora" (hour) are rare English and everyday Spanish, and a thread of everyday words is no thread."""

from conftest import pair_candidate

from walker.walk.evidence import everyday
from walker.walk.scorer import KEEP
from walker.words import vault_language, zipf
from walker.workspace import Workspace

SPANISH = {
    "Cocina/Pan de masa madre.md": "El pan de masa madre necesita una fermentación larga. La masa se deja reposar "
    "toda la noche en la nevera, y por la mañana se forma la hogaza antes de hornearla.",
    "Cocina/Caldo de verduras.md": "Para el caldo de verduras se usan las partes que sobran: tallos, hojas y "
    "cáscaras. Todo hierve despacio durante una hora y después se cuela.",
    "Cocina/Horno.md": "El horno tarda bastante en llegar a la temperatura que pide la receta. Conviene "
    "encenderlo antes de preparar la masa, porque una piedra fría no dora el pan.",
    "Jardín/Compost.md": "El compost necesita una mezcla de restos verdes y secos. Si la pila huele mal, le "
    "falta aire y hay que voltearla con una horca.",
    "Jardín/Tomates.md": "Los tomates piden sol todo el día y riego regular en la base de la planta. Las hojas "
    "mojadas por la tarde atraen hongos.",
    "Jardín/Semillas.md": "Las semillas de tomate se guardan secas en un sobre de papel, con el nombre de la "
    "variedad y el año en que se recogieron.",
    "Trabajo/Reunión semanal.md": "Cada lunes por la tarde el equipo se reúne, y la fecha y la hora salen en el "
    "calendario compartido.",
    "Trabajo/Informe.md": "El informe mensual resume lo que el equipo hizo, lo que falta y los problemas que "
    "encontramos con los proveedores durante el mes.",
    "Trabajo/Correo.md": "Los correos largos no se leen. Es mejor escribir una sola pregunta por mensaje y "
    "poner en el asunto lo que se espera de quien lo recibe.",
    "Música/Escalas.md": "Practicar escalas despacio con metrónomo ayuda más que tocarlas rápido con errores. "
    "Cada semana subo el tempo un poco.",
    "Música/Guitarra.md": "Las cuerdas nuevas se desafinan durante los primeros días, porque todavía se "
    "estiran. Hay que afinarlas antes de cada ensayo.",
    "Música/Concierto.md": "El concierto de la escuela es una tarde de junio, y la fecha y la hora se anuncian en "
    "el tablón de la entrada.",
}


def test_a_vault_in_spanish_is_read_in_spanish_and_english():
    assert vault_language("para como pero sobre también desde cuando donde porque mientras".split()) == "es"
    assert vault_language("the notes about compost and bread which would also have".split()) is None
    assert vault_language(["缓存", "过期", "数据库"]) is None
    assert zipf("fecha") < 3 < 5 <= zipf("fecha", "es")
    assert zipf("servidor remoto", "es") < 5  # a phrase: each word in the vault's language, the rarer one dominates
    assert everyday(["fecha", "hora"], "es") >= 5 > everyday(["fermentación", "hora"], "es")


def test_two_spanish_notes_that_share_only_everyday_words_are_not_kept(tmp_path):
    for path, text in SPANISH.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(f"# {path.rsplit('/', 1)[1][:-3]}\n\n{text}\n", encoding="utf-8")
    ws = Workspace.open(tmp_path)
    assert ws.index.language == "es"
    # A weekly meeting and a school concert both have "an afternoon", "a date" and "an hour": what every calendar says.
    # The score reads them as everyday Spanish, not as rare English (1.2, the rarest of them), and keeps nothing.
    candidate = pair_candidate(ws, "Trabajo/Reunión semanal.md", "Música/Concierto.md")
    assert candidate is None or candidate.grounding["score"] < KEEP
