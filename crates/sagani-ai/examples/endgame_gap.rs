// Temporary analysis (not to be committed): for each record, the chance of a symphony of the
// move played with `left` placements left, against the best.
use sagani_core::record::Record;
use sagani_core::Game;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let left: usize = args[1].parse().unwrap();
    let (mut played_sum, mut best_sum, mut n) = (0.0, 0.0, 0);
    for path in &args[2..] {
        let rec = Record::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
        let mut g = Game::new(&rec.setup()).unwrap();
        let mut found = false;
        for m in &rec.moves {
            if g.display(0).len() == 25 - left {
                let c = sagani_ai::endgame::symphony_chances(&g.view(Some(0)), left as u8).unwrap();
                let best = c.iter().map(|x| x.1).fold(0.0, f64::max);
                let mine = c.iter().find(|x| x.0 == m.mv).map(|x| x.1).unwrap();
                println!(
                    "{path}: played {mine:.3} best {best:.3} score {}",
                    g.score(0)
                );
                played_sum += mine;
                best_sum += best;
                n += 1;
                found = true;
                break;
            }
            g.play(m.mv).unwrap();
        }
        if !found {
            println!("{path}: over before");
        }
    }
    println!("{n} positions: played {played_sum:.2}, best {best_sum:.2}");
}
