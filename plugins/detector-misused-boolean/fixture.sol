pragma solidity ^0.8.0;

contract Treasury {
    address public owner = msg.sender;
    bool public paused;

    function withdraw(uint256 amount) external {
        require(msg.sender == owner || true); // expect: misused-boolean
        if (false) { // expect: misused-boolean
            paused = true;
        }
        payable(msg.sender).transfer(amount);
    }

    function check(bool a) external view returns (bool) {
        bool enabled = a && false; // expect: misused-boolean
        return enabled || paused;
    }

    function loop() external pure returns (uint256 n) {
        while (true) {
            n++;
            if (n > 3) break;
        }
        bool x = true;
        return x == true ? n : 0;
    }

    function stop() external pure {
        require(false, "disabled");
    }
}
