pragma solidity ^0.4.19;

contract Roulette {
    uint256 private secretNumber;
    struct Game {
        address player;
        uint256 number;
    }
    Game[] public games;

    function play(uint256 number) public payable {
        Game game; // expect: uninitialized-storage
        game.player = msg.sender; // expect: uninitialized-storage
        game.number = number; // expect: uninitialized-storage
        games.push(game);
    }

    function playSafely(uint256 number) public payable {
        Game memory game;
        game.player = msg.sender;
        game.number = number;
        games.push(game);
        Game storage first = games[0];
        first.number = number;
    }
}
