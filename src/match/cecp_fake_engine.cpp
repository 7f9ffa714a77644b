// cecp_fake_engine: a tiny CECP (xboard protocol 2) engine for the tests of janus cecp. It keeps
// the board with Janus's core and plays the first legal move (deterministic).
//
//   --san        announce feature san=1 and exchange moves in SAN (else coordinate notation)
//   --no-ping    do not announce ping (the bridge must answer isready without it)
//   --think      after "go", wait for "?" before moving (tests "stop")
//   --resign     answer "go" with "resign"
// It records every command it receives on stderr as "got: <line>".

#include <iostream>
#include <string>

#include "core/movegen.h"
#include "core/notation.h"
#include "util/error.h"

using namespace janus;

int main(int argc, char** argv) {
  bool san = false, ping = true, think = false, resign = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--san") san = true;
    else if (a == "--no-ping") ping = false;
    else if (a == "--think") think = true;
    else if (a == "--resign") resign = true;
  }
  Position pos;
  bool force = false, pending = false;
  auto play = [&] {
    Move m = legalMoves(pos)[0];
    std::string text = san ? toSan(pos, m) : toUci(m, false);
    std::cout << "1 17 0 42 " << text << std::endl;
    pos.makeMove(m);
    std::cout << "move " << text << std::endl;
  };
  for (std::string line; std::getline(std::cin, line);) {
    std::cerr << "got: " << line << std::endl;
    std::string cmd = line.substr(0, line.find(' '));
    std::string rest = line.size() > cmd.size() ? line.substr(cmd.size() + 1) : "";
    try {
      if (cmd == "protover") {
        std::cout << "feature myname=\"Fake CECP\" setboard=1 usermove=1 colors=0 sigint=0" << (ping ? " ping=1" : "")
                  << (san ? " san=1" : "") << " unknownthing=1" << std::endl;
        std::cout << "feature done=1" << std::endl;
      } else if (cmd == "new") {
        pos = Position();
        force = false;
      } else if (cmd == "force") {
        force = true;
      } else if (cmd == "setboard") {
        pos = Position::fromFen(rest);
      } else if (cmd == "usermove") {
        Move m = san ? parseSan(pos, rest) : parseUci(pos, rest, false);
        pos.makeMove(m);
        if (!force) play();
      } else if (cmd == "go") {
        force = false;
        if (resign) std::cout << "resign" << std::endl;
        else if (think) pending = true;
        else play();
      } else if (cmd == "?") {
        if (pending) play(), pending = false;
      } else if (cmd == "ping") {
        std::cout << "pong " << rest << std::endl;
      } else if (cmd == "quit") {
        return 0;
      }
    } catch (const Error& e) {
      std::cout << "Error (" << e.what() << "): " << line << std::endl;
    }
  }
  return 0;
}
